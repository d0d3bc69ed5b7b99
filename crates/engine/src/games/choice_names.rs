//! Test helpers for a game's choice parameters (placements, strategies …): the names a spec,
//! the derived parser and the command line use must be one list. Each game checks its own
//! enums with these, in its own folder.

/// A choice enum's names (strum's `VariantNames`), after checking that each parses back
/// (strum's `FromStr`) to a value whose `name` and serde name (specs) are the same.
pub fn derived_names<T>(name: impl Fn(&T) -> &'static str) -> &'static [&'static str]
where
    T: strum::VariantNames + std::str::FromStr + serde::Serialize + std::fmt::Debug,
{
    for &expected in T::VARIANTS {
        let Ok(variant) = expected.parse::<T>() else {
            panic!("{expected:?} does not parse");
        };
        assert_eq!(name(&variant), expected, "name() of {variant:?}");
        let spec = serde_json::to_value(&variant).expect("serialises");
        assert_eq!(spec.as_str(), Some(expected), "serde name of {variant:?}");
    }
    T::VARIANTS
}

/// The names clap offers on the command line.
pub fn command_line_names<T: clap::ValueEnum>() -> Vec<String> {
    T::value_variants()
        .iter()
        .map(|v| {
            v.to_possible_value()
                .expect("visible")
                .get_name()
                .to_string()
        })
        .collect()
}
