package corpus.gcd;

import static org.junit.Assert.*;

import java.util.Arrays;
import java.util.Collections;
import org.junit.Test;

public class GcdTest {

    @Test
    public void gcdValues() {
        assertEquals(6, Gcd.gcd(12, 18));
        assertEquals(6, Gcd.gcd(18, 12));
        assertEquals(1, Gcd.gcd(17, 5));
        assertEquals(7, Gcd.gcd(0, 7));
        assertEquals(7, Gcd.gcd(7, 0));
        assertEquals(0, Gcd.gcd(0, 0));
        assertEquals(4, Gcd.gcd(-8, 12));
    }

    @Test
    public void lcmValues() {
        assertEquals(36L, Gcd.lcm(12, 18));
        assertEquals(0L, Gcd.lcm(0, 5));
        assertEquals(0L, Gcd.lcm(5, 0));
        assertEquals(0L, Gcd.lcm(0, 0));
        assertEquals(35L, Gcd.lcm(-5, 7));
        assertEquals(4294967290L, Gcd.lcm(2147483645, 2));
    }

    @Test
    public void primality() {
        assertFalse(Gcd.isPrime(-3));
        assertFalse(Gcd.isPrime(0));
        assertFalse(Gcd.isPrime(1));
        assertTrue(Gcd.isPrime(2));
        assertTrue(Gcd.isPrime(3));
        assertFalse(Gcd.isPrime(4));
        assertFalse(Gcd.isPrime(9));
        assertFalse(Gcd.isPrime(25));
        assertTrue(Gcd.isPrime(97));
    }

    @Test
    public void sieveCounts() {
        assertEquals(0, Gcd.countPrimes(1));
        assertEquals(1, Gcd.countPrimes(2));
        assertEquals(2, Gcd.countPrimes(3));
        assertEquals(4, Gcd.countPrimes(10));
        assertEquals(4, Gcd.countPrimes(9));
        assertEquals(25, Gcd.countPrimes(100));
    }

    @Test
    public void factorisation() {
        assertEquals(Arrays.asList(2, 2, 3), Gcd.factor(12));
        assertEquals(Collections.singletonList(13), Gcd.factor(13));
        assertEquals(Arrays.asList(3, 3), Gcd.factor(9));
        assertEquals(Arrays.asList(2, 3, 5, 7), Gcd.factor(210));
        assertEquals(Arrays.asList(2, 2, 2, 2), Gcd.factor(16));
        assertEquals(Collections.singletonList(2), Gcd.factor(2));
        assertEquals(Collections.singletonList(3), Gcd.factor(3));
    }

    @Test
    public void totient() {
        assertEquals(1, Gcd.phi(1));
        assertEquals(1, Gcd.phi(2));
        assertEquals(4, Gcd.phi(5));
        assertEquals(4, Gcd.phi(12));
        assertEquals(6, Gcd.phi(9));
        assertEquals(40, Gcd.phi(100));
    }
}
