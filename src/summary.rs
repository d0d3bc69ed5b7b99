//! Mergeable accumulators: what trials fold into.

/// An exact, mergeable aggregate of trial outcomes.
///
/// `merge` must be associative, and a summary built by recording outcomes one by one must equal
/// one built by merging summaries of consecutive slices of the same outcomes. Keeping every
/// field an integer (counts, sums, sums of squares, integer histograms) makes merging exact in
/// any order.
pub trait Summary: Default + Clone + Send {
    /// What one trial produces.
    type Outcome;
    /// Folds one trial's outcome in.
    fn record(&mut self, outcome: &Self::Outcome);
    /// Folds another summary in (the other summary's trials come after this one's).
    fn merge(&mut self, other: &Self);
}
