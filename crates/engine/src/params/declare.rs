//! [`declare_params!`](crate::declare_params): a game's parameters declared once, each field
//! with its type, default, accepted values and description, from which come the struct (its
//! fields documented by their descriptions), its `Default` and the [`ParamDef`] list
//! ([`super::Params::DECLARED`]).
//!
//! [`ParamDef`]: super::ParamDef

/// Declares a game's parameter struct once. Each field is written as
///
/// ```text
/// name: Type = default, kind, "description" [, rule] [, used_when(CONDITIONS)];
/// ```
///
/// and the macro writes the struct (with the attributes given before it, each field public and
/// documented by its description), `Default` (every field at its default) and `FIELDS`, the
/// fields' [`ParamDef`](crate::params::ParamDef)s in field order, the key being the field's
/// name: the game's `Params` implementation sets `const DECLARED = Self::FIELDS`.
///
/// ```
/// use experiment_engine::declare_params;
/// use experiment_engine::params::ParamKind;
///
/// declare_params! {
///     /// A coin's parameters.
///     #[derive(Clone, Debug, PartialEq)]
///     pub struct CoinParams {
///         flips: u32 = 10, ParamKind::Int { min: 1, max: 100 }, "flips per trial";
///         bias: f64 = 0.5, ParamKind::Float { min: 0.0, max: 1.0 }, "chance of heads", rule;
///     }
/// }
///
/// assert_eq!(CoinParams::default(), CoinParams { flips: 10, bias: 0.5 });
/// assert_eq!(CoinParams::FIELDS[1].name, "bias");
/// assert_eq!(CoinParams::FIELDS[0].description, "flips per trial");
/// ```
#[macro_export]
macro_rules! declare_params {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                $field:ident : $ty:ty = $default:expr, $kind:expr, $description:literal
                    $(, $modifier:ident $(($argument:expr))?)* ;
            )*
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $(
                #[doc = $description]
                pub $field: $ty,
            )*
        }

        impl ::core::default::Default for $name {
            fn default() -> Self {
                $name {
                    $($field: $default,)*
                }
            }
        }

        impl $name {
            /// Every field's key, accepted values and description, in field order (what
            /// `Params::DECLARED` is).
            pub const FIELDS: &'static [$crate::params::ParamDef] = &[
                $(
                    $crate::params::ParamDef::new(::core::stringify!($field), $kind, $description)
                        $(.$modifier($($argument)?))*,
                )*
            ];
        }
    };
}
