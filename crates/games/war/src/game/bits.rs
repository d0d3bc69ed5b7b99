//! Random bits for War's `random` placement, drawn 64 at a time.

use rand::RngCore;

use experiment_engine::rng::TrialRng;

/// Random bits for the `random` placement, drawn 64 at a time from the trial's RNG so that
/// ordering a two-card pile costs one bit.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Bits {
    word: u64,
    left: u32,
}

impl Bits {
    /// No bits drawn yet.
    pub(super) const EMPTY: Bits = Bits { word: 0, left: 0 };

    /// One fair bit.
    #[inline(always)]
    pub(super) fn bit(&mut self, rng: &mut TrialRng) -> bool {
        if self.left == 0 {
            self.word = rng.next_u64();
            self.left = 64;
        }
        let bit = self.word & 1 == 1;
        self.word >>= 1;
        self.left -= 1;
        bit
    }

    /// Exactly uniform on `0..n` for `n <= 64` (Lemire's multiply-and-reject on 32 bits).
    fn below(&mut self, n: u32, rng: &mut TrialRng) -> usize {
        let threshold = n.wrapping_neg() % n;
        loop {
            if self.left < 32 {
                self.word = rng.next_u64();
                self.left = 64;
            }
            let draw = self.word as u32;
            self.word >>= 32;
            self.left -= 32;
            let product = u64::from(draw) * u64::from(n);
            if product as u32 >= threshold {
                return (product >> 32) as usize;
            }
        }
    }

    /// A uniform Fisher-Yates shuffle; two cards take a single bit. In line, as it was when
    /// only the standard rules' turn called it.
    #[inline(always)]
    pub(super) fn shuffle(&mut self, pile: &mut [u8], rng: &mut TrialRng) {
        if pile.len() == 2 {
            if self.bit(rng) {
                pile.swap(0, 1);
            }
            return;
        }
        for i in (1..pile.len()).rev() {
            let j = self.below(i as u32 + 1, rng);
            pile.swap(i, j);
        }
    }
}
