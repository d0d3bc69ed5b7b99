#!/usr/bin/env python3
"""Prints the reference values pinned in tests/numerics/t_values.rs and tail_values.rs.

Every value is computed with mpmath 1.3.0 at 50 significant digits (mp.dps = 50) and printed
to 17 significant digits; scipy 1.17.1 is only a cross-check (the script stops if the two
disagree by more than 1e-9 relative where scipy is itself accurate). Run:
    pip install scipy==1.17.1 mpmath==1.3.0 && python3 tests/numerics_reference.py
"""
import mpmath as mp
import scipy.stats as st

mp.mp.dps = 50
HALF = mp.mpf(1) / 2

# Degrees of freedom: 1-2-3-5 in every decade from 1 to 10^12, plus fractional ones (Welch's
# df is not a whole number) and ones either side of the engine's switches between methods.
DFS = [1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 7.3]
for exponent in range(1, 13):
    DFS += [m * 10.0**exponent for m in (1, 2, 3, 5) if m * 10.0**exponent <= 1e12]
DFS += [999.5, 1000.5, 9999.5, 10000.5, 123456.7, 3.3e7]
DFS = sorted(set(DFS))


def t_sf(t, nu):
    """P(T > t), t >= 0: half the regularized incomplete beta I_{nu/(nu+t^2)}(nu/2, 1/2)."""
    t, nu = mp.mpf(t), mp.mpf(nu)
    return mp.betainc(nu / 2, HALF, 0, nu / (nu + t * t), regularized=True) / 2


def t_quantile(p, nu):
    guess = mp.mpf(st.t.ppf(p, nu))
    return mp.findroot(lambda t: t_sf(t, nu) - (1 - mp.mpf(p)), guess)


def chi_square_sf(x, k):
    return mp.gammainc(mp.mpf(k) / 2, mp.mpf(x) / 2, mp.inf, regularized=True)


def normal_two_sided(z):
    return mp.erfc(mp.mpf(z) / mp.sqrt(2))


def fmt(value):
    return mp.nstr(value, 17, min_fixed=1, max_fixed=0).replace("e+", "e")


def check(ours, scipy_value, tol=1e-9):
    if scipy_value != 0 and abs(float(ours) / scipy_value - 1) > tol:
        raise SystemExit(f"mpmath {ours} and scipy {scipy_value} disagree")


print("// t quantile at 0.975: (df, quantile)")
for nu in DFS:
    q = t_quantile(0.975, nu)
    check(q, st.t.ppf(0.975, nu), 1e-7)
    print(f"    ({nu!r}, {fmt(q)}),")

print("// two-sided t p-values: (t, df, p)")
for t in (0.5, 2.0, 5.0, 10.0, 30.0):
    for nu in DFS:
        p = 2 * t_sf(t, nu)
        check(p, 2 * st.t.sf(t, nu), 1e-6)
        print(f"    ({t!r}, {nu!r}, {fmt(p)}),")

print("// chi-square upper tails: (statistic, df, p)")
for k in DFS:
    xs = [k + c * (2 * k) ** 0.5 for c in (-1.0, 0.0, 2.0, 10.0)]
    if k <= 10:
        xs += [0.5, 3.0, 30.0]
    for x in xs:
        if x <= 0:
            continue
        p = chi_square_sf(x, k)
        print(f"    ({x!r}, {k!r}, {fmt(p)}),")

print("// two-sided normal p-values: (z, p)")
for z in (0.0, 0.5, 1.959963984540054, 3.0, 5.0, 10.0, 20.0, 30.0, 37.0):
    p = normal_two_sided(z)
    check(p, 2 * st.norm.sf(z))
    print(f"    ({z!r}, {fmt(p)}),")

print("// Wilson 95% intervals: (successes, trials, lower, upper)")
z = mp.sqrt(2) * mp.erfinv(mp.mpf("0.95"))
for s, n in ((81, 263), (1, 10**6), (500_000, 10**6), (1, 10**12), (10**12 - 1, 10**12),
             (123_456_789_012, 10**12), (3, 7)):
    p, n_ = mp.mpf(s) / n, mp.mpf(n)
    centre = (p + z * z / (2 * n_)) / (1 + z * z / n_)
    half = z / (1 + z * z / n_) * mp.sqrt(p * (1 - p) / n_ + z * z / (4 * n_ * n_))
    print(f"    ({s}, {n}, {fmt(centre - half)}, {fmt(centre + half)}),")
