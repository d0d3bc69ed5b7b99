//! What the report says of `[compare] within`: which variants were compared with which, how
//! many pairs that made, and the Holm family they form.

use super::comparison::ALL_PAIRS_LIMIT;
use super::{Analysis, Pairs};
use crate::params::ParamSet;
use crate::report::{code, Block, Text};

impl<S> Analysis<'_, S> {
    /// Whether the variants were compared only within groups (`[compare] within`).
    pub fn grouped(&self) -> bool {
        self.rows
            .first()
            .is_some_and(|first| !first.variant.compare.is_default())
    }

    /// The paragraph that says how `[compare] within` grouped the comparisons: "Compared
    /// within equal `face_down`: 30 pairs in 2 groups; ..." (nothing when the variants are not
    /// grouped, or the study compares them with tests of its own).
    pub fn grouping_blocks(&self) -> Vec<Block> {
        if !self.grouped() || self.measures.pairs == Pairs::Own {
            return Vec::new();
        }
        let compare = &self.rows[0].variant.compare;
        let params: Vec<&ParamSet> = self.rows.iter().map(|r| &r.variant.params).collect();
        let groups = compare.groups(&params);
        let pairs = match self.common {
            Some(common) => common.summary.pairs().len(),
            None => super::comparison::pairs(self.measures, &self.rows).len(),
        };
        let with_best = self.measures.pairs == Pairs::WithBest;
        let large = groups.iter().any(|g| g.len() > ALL_PAIRS_LIMIT);
        let how = if with_best {
            "each variant is compared with the best of its group".to_string()
        } else if large {
            format!(
                "every pair within a group of up to {ALL_PAIRS_LIMIT} variants; in a larger \
                 group each variant with the best of the group"
            )
        } else {
            "every pair within each group".to_string()
        };
        let best = if with_best || large {
            match self.common {
                Some(_) => {
                    " (the best by a pilot of 1,024 trials per variant on the run's seed, by "
                }
                None => " (the best: the highest ",
            }
        } else {
            ""
        };
        let mut text = Text::new()
            .plain("Compared within equal ")
            .append(Text::join(compare.within.iter().copied(), ", ", code))
            .plain(format!(
                ": {pairs} pairs in {} of variants with the same values; {how}",
                match groups.len() {
                    1 => "1 group".to_string(),
                    n => format!("{n} groups"),
                }
            ));
        if !best.is_empty() {
            text = text.plain(best).code(self.measures.headline).plain(")");
        }
        vec![Block::paragraph(text.plain(". ").code("p_holm").plain(
            format!(
                " is Holm-corrected over those {pairs} pairs in each family; pairs across \
                     groups are not compared."
            ),
        ))]
    }
}
