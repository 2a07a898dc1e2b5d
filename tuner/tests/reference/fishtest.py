#!/usr/bin/env python3
"""Reference values for koom's SPRT and Elo tests, computed outside koom.

A plain-Python re-implementation of the formulas of fishtest's
server/fishtest/stats/LLRcalc.py (regularize, results_to_pdf, MLE_expected,
MLE_t_value, LLR_logistic, LLR_normalized) and of the delta-method interval of
the t-value, written from reading that code (official-stockfish/fishtest), and of the
sequentially corrected Elo of an SPRT that stopped at a bound: sprt.py
(set_state, outcome_prob, lower_cb, analytics) with brownian.py (outcome_cdf and
its two evaluations: the eigenfunction series and Siegmund's approximation).
scipy's brentq is replaced by bisection to machine precision (the same root).
fishtest handles groups of 1 and 2 games (3 and 5 levels); the normalized
bounds generalise to groups of R games as t = nt * sqrt(R), exactly as its
pentanomial case uses sqrt(2).

Run: python3 tuner/tests/reference/fishtest.py
"""
import math

NELO_DIVIDED_BY_NT = 800 / math.log(10)
Z95 = 1.959963984540054


def regularize(results):
    return [r if r != 0 else 1e-3 for r in results]


def results_to_pdf(results):
    results = regularize(results)
    n = sum(results)
    count = len(results)
    return n, [(i / (count - 1), r / n) for i, r in enumerate(results)]


def stats(pdf):
    s = sum(p * a for a, p in pdf)
    var = sum(p * (a - s) ** 2 for a, p in pdf)
    return s, var


def secular(pdf):
    values = [a for a, _ in pdf]
    v, w = min(values), max(values)
    assert v * w < 0
    lo, hi = -1 / w, -1 / v

    def f(x):
        return sum(p * a / (1 + x * a) for a, p in pdf)

    # f decreases on (lo, hi): bisection to machine precision.
    for _ in range(300):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def mle_expected(pdfhat, s):
    x = secular([(a - s, p) for a, p in pdfhat])
    return [(a, p / (1 + x * (a - s))) for a, p in pdfhat]


def mle_t_value(pdfhat, ref, s):
    n = len(pdfhat)
    pdf_mle = [(a, 1 / n) for a, _ in pdfhat]
    for _ in range(10):
        prev = pdf_mle
        mu, var = stats(pdf_mle)
        sigma = var ** 0.5
        pdf1 = [(a - ref - s * sigma * (1 + ((mu - a) / sigma) ** 2) / 2, p) for a, p in pdfhat]
        x = secular(pdf1)
        pdf_mle = [(pdfhat[i][0], pdfhat[i][1] / (1 + x * pdf1[i][0])) for i in range(n)]
        if max(abs(prev[i][1] - pdf_mle[i][1]) for i in range(n)) < 1e-9:
            break
    return pdf_mle


def llr(pdf, p0, p1):
    return sum(p * (math.log(p1[i][1]) - math.log(p0[i][1])) for i, (_, p) in enumerate(pdf))


def llr_logistic(elo0, elo1, results):
    s0, s1 = [1 / (1 + 10 ** (-e / 400)) for e in (elo0, elo1)]
    n, pdf = results_to_pdf(results)
    return n * llr(pdf, mle_expected(pdf, s0), mle_expected(pdf, s1))


def llr_normalized(nelo0, nelo1, results):
    games_per_group = (len(results) - 1) // 2
    t0, t1 = [nelo / NELO_DIVIDED_BY_NT * games_per_group ** 0.5 for nelo in (nelo0, nelo1)]
    n, pdf = results_to_pdf(results)
    return n * llr(pdf, mle_t_value(pdf, 0.5, t0), mle_t_value(pdf, 0.5, t1))


def nelo_delta(results):
    """nElo per game and its 95% half-width by the delta method (unregularized counts)."""
    n = sum(results)
    pdf = [(i / (len(results) - 1), r / n) for i, r in enumerate(results)]
    mu, var = stats(pdf)
    sd = var ** 0.5
    t = (mu - 0.5) / sd
    m3 = sum(p * (a - mu) ** 3 for a, p in pdf)
    m4 = sum(p * (a - mu) ** 4 for a, p in pdf)
    skew, exkurt = m3 / sd ** 3, m4 / var ** 2 - 3
    var_t = (1 - t * skew + t * t * (exkurt + 2) / 4) / n
    scale = NELO_DIVIDED_BY_NT / ((len(results) - 1) // 2) ** 0.5
    return t * scale, Z95 * var_t ** 0.5 * scale


def elo(x):
    epsilon = 1e-3
    x = min(max(x, epsilon), 1 - epsilon)
    return -400 * math.log10(1 / x - 1)


def get_elo(results):
    """fishtest's stat_util.get_elo: Elo and the half-width of its 95% interval, and LOS."""
    results = regularize(results)
    l = len(results)
    n = sum(results)
    games = n * (l - 1) / 2.0
    mu = sum(results[i] * (i / 2.0) for i in range(l)) / games
    mu_ = (l - 1) / 2.0 * mu
    var = sum(results[i] * (i / 2.0 - mu_) ** 2.0 for i in range(l)) / games
    stdev = math.sqrt(var)
    mu_min = mu - Z95 * stdev / math.sqrt(games)
    mu_max = mu + Z95 * stdev / math.sqrt(games)
    los = 0.5 * math.erfc(-((mu - 0.5) / (stdev / math.sqrt(games))) / math.sqrt(2))
    return elo(mu), (elo(mu_max) - elo(mu_min)) / 2.0, los


CASES = [
    # (name, results, model, bounds)
    ("perfect pairs (trente-douze hard vs easy)", [0, 0, 0, 0, 2000], "normalized", (-1.75, 0.25)),
    ("perfect pairs, gain bounds", [0, 0, 0, 0, 2000], "normalized", (0.0, 2.0)),
    ("total collapse (easy vs hard)", [2000, 0, 0, 0, 0], "normalized", (-1.75, 0.25)),
    ("fishtest stat_util example, logistic", [10789, 19328, 33806, 19402, 10543], "logistic", (-3, 1)),
    ("fishtest stat_util example, normalized", [39, 2226, 31451, 2412, 40], "normalized", (0.764, 3.439)),
    ("strong pentanomial, empty low levels", [0, 0, 37, 120, 243], "normalized", (-1.75, 0.25)),
    ("four-seat groups, empty levels", [0, 0, 1, 3, 20, 31, 28, 12, 5], "normalized", (0.0, 10.0)),
    ("trinomial", [30, 40, 50], "logistic", (0.0, 30.0)),
]

def phi(x):
    return 0.5 * math.erfc(-x / math.sqrt(2))


def outcome_cdf(a, b, mu, sigma2, T, y):
    """brownian.py Brownian.outcome_cdf: P(a Brownian motion of drift mu, variance sigma2 per
    unit time, stopped at a or b, ends "to the right of" (T, y))."""
    gamma = mu / sigma2
    A = b - a
    if sigma2 * T / A ** 2 < 1e-2 or abs(gamma * A) > 15:
        return siegmund(a, b, mu, sigma2, T, y)
    return series(a, b, mu, sigma2, T, y)


def series(a, b, mu, sigma2, T, y):
    A = b - a
    x, y = -a, y - a
    gamma = mu / sigma2
    lambda1 = (math.pi / A) ** 2 * sigma2 / 2 + mu ** 2 / sigma2 / 2
    t0 = math.exp(-lambda1 * T - x * gamma + y * gamma)
    total, n = 0.0, 1
    while True:
        lambdan = (n * math.pi / A) ** 2 * sigma2 / 2 + mu ** 2 / sigma2 / 2
        t1 = math.exp(-(lambdan - lambda1) * T)
        u = (2 * A * gamma * math.sin(math.pi * n * y / A) - 2 * math.pi * n * math.cos(math.pi * n * y / A)) / (
            A ** 2 * gamma ** 2 + math.pi ** 2 * n ** 2
        )
        total += t1 * u * math.sin(n * math.pi * x / A)
        if abs(t0 * t1 * u) <= 1e-9:
            break
        n += 1
    if gamma * A > 30:
        pre = math.exp(-2 * gamma * x)
    elif abs(gamma * A) < 1e-8:
        pre = (A - x) / A
    else:
        pre = (1 - math.exp(2 * gamma * (A - x))) / (1 - math.exp(2 * gamma * A))
    return pre + t0 * total


def siegmund(a, b, mu, sigma2, T, y):
    denom = math.sqrt(T * sigma2)
    offset = mu * T
    gamma = mu / sigma2
    z = (y - offset) / denom
    za = (-y + offset + 2 * a) / denom
    zb = (y - offset - 2 * b) / denom

    def reflected(bound, zz):
        if gamma * bound >= 5:
            return -math.exp(-zz ** 2 / 2 + 2 * gamma * bound) / math.sqrt(2 * math.pi) * (1 / zz - 1 / zz ** 3)
        return math.exp(2 * gamma * bound) * phi(zz)

    return phi(z) + reflected(a, za) - reflected(b, zb)


def sequential_elo(results, model, elo0, elo1, alpha=0.05, beta=0.05, p=0.05):
    """sprt.py's analytics: the Elo (median), its 1 - p interval and the LOS that account for
    the stopping rule, all in logistic Elo, and whether the LLR was clamped."""
    a, b = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    n, pdf = results_to_pdf(results)
    s_hat, v_hat = stats(pdf)
    if model == "normalized":
        sigma_pg = (v_hat * ((len(results) - 1) // 2)) ** 0.5
        s0, s1 = [0.5 + e / NELO_DIVIDED_BY_NT * sigma_pg for e in (elo0, elo1)]
    else:
        s0, s1 = [1 / (1 + 10 ** (-e / 400)) for e in (elo0, elo1)]

    def drift_variance(s):
        v = v_hat + (s - s_hat) ** 2
        return (s - (s0 + s1) / 2) * (s1 - s0) / v, (s1 - s0) ** 2 / v

    slope = drift_variance(s_hat)[0]
    llr, T = n * slope, n
    clamped = llr > 1.03 * b or llr < 1.03 * a
    if llr < a:
        T, llr = a / slope, a
    elif llr > b:
        T, llr = b / slope, b

    def outcome_prob(e):
        mu, var = drift_variance(1 / (1 + 10 ** (-e / 400)))
        return outcome_cdf(a, b, mu, var, T, llr)

    def lower_cb(q):
        avg, delta, k = (elo0 + elo1) / 2, elo1 - elo0, 30
        while True:
            lo, hi = max(avg - k * delta, -1000), min(avg + k * delta, 1000)
            g = lambda e: outcome_prob(e) - (1 - q)
            glo, ghi = g(lo), g(hi)
            if glo * ghi > 0:
                if lo > -1000 or hi < 1000:
                    k *= 2
                    continue
                return hi if glo > 0 else lo
            # bisection to machine precision replaces scipy's brentq (the same root)
            for _ in range(200):
                mid = (lo + hi) / 2
                if mid in (lo, hi):
                    break
                gm = g(mid)
                if (gm > 0) == (glo > 0):
                    lo, glo = mid, gm
                else:
                    hi = mid
            return (lo + hi) / 2

    return lower_cb(0.5), lower_cb(p / 2), lower_cb(1 - p / 2), outcome_prob(0), clamped


STOPPED = [
    # (name, results, model, elo0, elo1): SPRTs whose LLR crossed a bound (alpha = beta = 0.05)
    ("pairs just over the upper bound, logistic [0, 5]", [1000, 5000, 9000, 5200, 1100], "logistic", 0, 5),
    ("pairs, H0 at logistic [0, 5]", [500, 3000, 6000, 3000, 480], "logistic", 0, 5),
    ("pairs, H1 at normalized [0, 2]", [25, 2250, 10000, 2500, 30], "normalized", 0, 2),
    ("single games, H0 at logistic [-20, 20]", [120, 200, 100], "logistic", -20, 20),
    ("single games, H0 at logistic [0, 30]", [50, 40, 30], "logistic", 0, 30),
    ("single games, far above logistic [0, 50]", [20, 300, 250], "logistic", 0, 50),
    ("four-seat groups, normalized [0, 10]", [0, 0, 1, 3, 20, 31, 28, 12, 5], "normalized", 0.0, 10.0),
    ("perfect pairs (trente-douze hard vs easy), nonreg", [0, 0, 0, 0, 2000], "normalized", -1.75, 0.25),
]

if __name__ == "__main__":
    for name, results, model, (e0, e1) in CASES:
        f = llr_logistic if model == "logistic" else llr_normalized
        line = f"{name}: {results} {model} [{e0}, {e1}] LLR {f(e0, e1, results):.10f}"
        if 0 < results[0] + results[-1] < sum(results) or all(results[1:-1]):
            nelo, half = nelo_delta(results)
            line += f"; nElo {nelo:.10f} +- {half:.10f}"
            e, e95, los = get_elo(results)
            line += f"; Elo {e:.10f} +- {e95:.10f}, LOS {los:.10f}"
        print(line)
    for name, results, model, e0, e1 in STOPPED:
        f = llr_logistic if model == "logistic" else llr_normalized
        elo, lo, hi, los, clamped = sequential_elo(results, model, e0, e1)
        print(
            f"sequential, {name}: {results} LLR {f(e0, e1, results):.4f}; "
            f"Elo {elo:.10f} [{lo:.10f}, {hi:.10f}], LOS {los:.10f}, clamped {clamped}"
        )
