//! Refuses parameters a variant's game does not read ([`Used::When`]): set for a variant that
//! ignores them, they would make variants that play the same games under names that say
//! otherwise.

use super::locate::Locator;
use super::raw::ExperimentSpec;
use super::validate::Draft;
use super::SpecError;
use crate::params::{GameParams, Used};

/// Checks every variant's own keys (from its sweep or `[[variant]]` table) and every key of
/// `[params]` (read by at least one variant) against when the game reads them.
pub(super) fn check(
    spec: &ExperimentSpec,
    study: &dyn GameParams,
    drafts: &[Draft],
    locate: &Locator,
) -> Result<(), SpecError> {
    for def in study.params().declared() {
        let Used::When(conditions) = def.used else {
            continue;
        };
        let when = def.used_text().unwrap_or_default();
        for draft in drafts {
            let Some((_, at)) = draft.own.iter().find(|(key, _)| *key == def.name) else {
                continue;
            };
            if def.is_used(&draft.params) {
                continue;
            }
            let here: Vec<String> = conditions
                .iter()
                .map(|(key, _)| format!("{key} = {}", draft.params.get(key)))
                .collect();
            return Err(locate.error(
                at.clone(),
                format!(
                    "variant '{}' sets {}, which game '{}' reads only {when} (here {}): \
                     leave {} out of this variant, or sweep it in a [[sweep]] block of its own \
                     with the settings that read it",
                    draft.name,
                    def.name,
                    study.game(),
                    here.join(", "),
                    def.name
                ),
            ));
        }
        if let Some(value) = spec.params.get(def.name) {
            if !drafts.iter().any(|draft| def.is_used(&draft.params)) {
                return Err(locate.error(
                    value.span(),
                    format!(
                        "{} is set in [params], but no variant reads it: game '{}' reads it \
                         only {when}",
                        def.name,
                        study.game()
                    ),
                ));
            }
        }
    }
    Ok(())
}
