//! A small dense linear solve, for the exact chains (Monopoly's stationary distribution) and
//! the board checks (a Chutes board's expected length).

/// Solves the augmented `n x (n + 1)` system `a` by Gaussian elimination with partial
/// pivoting.
pub fn solve(mut a: Vec<Vec<f64>>) -> Vec<f64> {
    let n = a.len();
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        let (upper, lower) = a.split_at_mut(col + 1);
        let pivot_row = &upper[col];
        for row in lower.iter_mut() {
            let factor = row[col] / pivot_row[col];
            if factor != 0.0 {
                for (cell, &p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                    *cell -= factor * p;
                }
            }
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let tail: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (a[row][n] - tail) / a[row][row];
    }
    x
}
