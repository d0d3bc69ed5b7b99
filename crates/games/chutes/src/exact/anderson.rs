//! Anderson acceleration of a fixed-point iteration `u <- g(u)`: each step moves to the
//! combination of the last few `g` values whose residuals `g(u) - u` cancel best in the least
//! squares sense. For an affine `g` this is a Krylov method (GMRES with a short memory), so a
//! slowly contracting iteration converges in far fewer steps.

use std::collections::VecDeque;

/// How many past steps the least squares fit combines.
const DEPTH: usize = 3;

/// Columns whose part not explained by the newer ones is below this fraction of their norm
/// are left out of the fit (they add nothing but rounding).
const DEPENDENT: f64 = 1e-10;

/// The memory of an accelerated iteration.
#[derive(Debug, Default)]
pub(crate) struct Anderson {
    /// The previous iterate's (residual, g value).
    last: Option<(Vec<f64>, Vec<f64>)>,
    /// Differences of consecutive (residuals, g values), newest first.
    steps: VecDeque<(Vec<f64>, Vec<f64>)>,
}

impl Anderson {
    /// The next iterate after `u`, given `g` = g(u).
    pub(crate) fn next(&mut self, u: &[f64], g: &[f64]) -> Vec<f64> {
        let residual: Vec<f64> = g.iter().zip(u).map(|(g, u)| g - u).collect();
        if let Some((last_residual, last_g)) = self.last.take() {
            let d_residual = residual.iter().zip(&last_residual).map(|(a, b)| a - b);
            let d_g = g.iter().zip(&last_g).map(|(a, b)| a - b);
            self.steps.push_front((d_residual.collect(), d_g.collect()));
            self.steps.truncate(DEPTH);
        }
        let gamma = self.fit(&residual);
        let mut next = g.to_vec();
        for (weight, (_, d_g)) in gamma.iter().zip(&self.steps) {
            for (x, d) in next.iter_mut().zip(d_g) {
                *x -= weight * d;
            }
        }
        self.last = Some((residual, g.to_vec()));
        next
    }

    /// The weights of the stored residual differences that best cancel `residual` (least
    /// squares by modified Gram-Schmidt, dependent columns weighted 0).
    fn fit(&self, residual: &[f64]) -> Vec<f64> {
        let m = self.steps.len();
        let mut q: Vec<Vec<f64>> = Vec::with_capacity(m);
        let mut kept: Vec<usize> = Vec::with_capacity(m);
        let mut r = vec![vec![0.0f64; m]; m];
        for (j, (column, _)) in self.steps.iter().enumerate() {
            let mut v = column.clone();
            let norm = dot(&v, &v).sqrt();
            for (i, &col) in kept.iter().enumerate() {
                let qi: &Vec<f64> = &q[i];
                let coefficient = dot(qi, &v);
                r[col][j] = coefficient;
                for (x, y) in v.iter_mut().zip(qi) {
                    *x -= coefficient * y;
                }
            }
            let rest = dot(&v, &v).sqrt();
            if rest > DEPENDENT * norm && rest > 0.0 {
                v.iter_mut().for_each(|x| *x /= rest);
                r[j][j] = rest;
                q.push(v);
                kept.push(j);
            }
        }
        // Solve R gamma = Q^T residual over the kept columns, by back substitution.
        let mut gamma = vec![0.0; m];
        for i in (0..kept.len()).rev() {
            let row = kept[i];
            let mut sum = dot(&q[i], residual);
            for &col in &kept[i + 1..] {
                sum -= r[row][col] * gamma[col];
            }
            gamma[row] = sum / r[row][row];
        }
        gamma
    }
}

/// The dot product of two equally long slices.
fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_affine_contraction_converges_in_a_few_steps() {
        // g(u) = A u + c with A's spectral radius 0.95: plain iteration needs over 500 steps
        // to reach 1e-12; three remembered steps span this three-dimensional problem.
        let a = [[0.95, 0.0, 0.0], [0.3, 0.5, 0.0], [0.0, 0.2, -0.9]];
        let c = [1.0, -2.0, 0.5];
        let g = |u: &[f64]| -> Vec<f64> {
            (0..3)
                .map(|i| c[i] + (0..3).map(|j| a[i][j] * u[j]).sum::<f64>())
                .collect()
        };
        let mut anderson = Anderson::default();
        let mut u = vec![0.0; 3];
        let mut steps = 0;
        while g(&u).iter().zip(&u).any(|(g, u)| (g - u).abs() >= 1e-12) {
            u = anderson.next(&u, &g(&u));
            steps += 1;
            assert!(steps < 10, "not converged after {steps} steps: {u:?}");
        }
        // The fixed point, by forward substitution of (I - A) u = c.
        let u0 = c[0] / 0.05;
        let u1 = (c[1] + 0.3 * u0) / 0.5;
        let u2 = (c[2] + 0.2 * u1) / 1.9;
        for (got, want) in u.iter().zip([u0, u1, u2]) {
            assert!((got - want).abs() < 1e-10, "{u:?}");
        }
    }
}
