// Confidence bounds of a rate measured as k events in n independent trials.

/** P(X <= k) for X ~ Binomial(n, p), summed in log space so that n in the tens of thousands does not underflow. */
function binomialCdf(k: number, n: number, p: number): number {
  if (p <= 0) return 1;
  if (p >= 1) return k >= n ? 1 : 0;
  let logTerm = n * Math.log1p(-p);
  let sum = Math.exp(logTerm);
  for (let i = 1; i <= k; i++) {
    logTerm += Math.log((n - i + 1) / i) + Math.log(p) - Math.log1p(-p);
    sum += Math.exp(logTerm);
  }
  return Math.min(1, sum);
}

/** The one-sided 95% Clopper-Pearson upper bound of a rate: the p at which k or fewer events have a 5% chance. */
export function upperBound95(k: number, n: number): number {
  if (k >= n) return 1;
  let low = k / n;
  let high = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (low + high) / 2;
    if (binomialCdf(k, n, mid) > 0.05) low = mid;
    else high = mid;
  }
  return high;
}
