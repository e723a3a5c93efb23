package corpus.gcd;

import java.util.ArrayList;
import java.util.List;

/** Number theory helpers: gcd, lcm, primality, sieve, factorisation. */
public final class Gcd {

    private Gcd() {
    }

    /** Greatest common divisor of |a| and |b|; gcd(0, 0) is 0. */
    public static int gcd(int a, int b) {
        a = Math.abs(a);
        b = Math.abs(b);
        while (b != 0) {
            int r = a % b;
            a = b;
            b = r;
        }
        return a;
    }

    /** Least common multiple; 0 when either argument is 0. */
    public static long lcm(int a, int b) {
        if (a == 0 || b == 0) {
            return 0;
        }
        return Math.abs((long) a / gcd(a, b) * b);
    }

    /** Trial-division primality test. */
    public static boolean isPrime(int n) {
        if (n < 2) {
            return false;
        }
        for (int d = 2; (long) d * d <= n; d++) {
            if (n % d == 0) {
                return false;
            }
        }
        return true;
    }

    /** Number of primes not greater than limit, by the sieve of Eratosthenes. */
    public static int countPrimes(int limit) {
        if (limit < 2) {
            return 0;
        }
        boolean[] composite = new boolean[limit + 1];
        int count = 0;
        for (int i = 2; i <= limit; i++) {
            if (!composite[i]) {
                count++;
                for (long j = (long) i * i; j <= limit; j += i) {
                    composite[(int) j] = true;
                }
            }
        }
        return count;
    }

    /** Prime factors of n (n >= 2) in non-decreasing order, with repetition. */
    public static List<Integer> factor(int n) {
        List<Integer> factors = new ArrayList<>();
        int rest = n;
        for (int d = 2; d <= rest / d; d++) {
            while (rest % d == 0) {
                factors.add(d);
                rest /= d;
            }
        }
        if (rest > 1) {
            factors.add(rest);
        }
        return factors;
    }

    /** Euler's totient: how many k in [1, n] are coprime with n. */
    public static int phi(int n) {
        int result = n;
        int rest = n;
        for (int p = 2; p * p <= rest; p++) {
            if (rest % p == 0) {
                while (rest % p == 0) {
                    rest /= p;
                }
                result -= result / p;
            }
        }
        if (rest > 1) {
            result -= result / rest;
        }
        return result;
    }
}
