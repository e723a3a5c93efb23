package corpus.roman;

import static org.junit.Assert.*;

import org.junit.Test;

public class RomanTest {

    @Test
    public void toRomanValues() {
        assertEquals("I", Roman.toRoman(1));
        assertEquals("IV", Roman.toRoman(4));
        assertEquals("IX", Roman.toRoman(9));
        assertEquals("XL", Roman.toRoman(40));
        assertEquals("MCMXCIV", Roman.toRoman(1994));
        assertEquals("MMMCMXCIX", Roman.toRoman(3999));
    }

    @Test
    public void fromRomanValues() {
        assertEquals(1, Roman.fromRoman("I"));
        assertEquals(4, Roman.fromRoman("IV"));
        assertEquals(6, Roman.fromRoman("VI"));
        assertEquals(1994, Roman.fromRoman("MCMXCIV"));
        assertEquals(3999, Roman.fromRoman("MMMCMXCIX"));
    }

    @Test
    public void roundTripAll() {
        for (int n = 1; n <= 3999; n++) {
            assertEquals(n, Roman.fromRoman(Roman.toRoman(n)));
        }
    }

    @Test(expected = IllegalArgumentException.class)
    public void zeroRejected() {
        Roman.toRoman(0);
    }

    @Test(expected = IllegalArgumentException.class)
    public void tooLargeRejected() {
        Roman.toRoman(4000);
    }

    @Test(expected = IllegalArgumentException.class)
    public void emptyRejected() {
        Roman.fromRoman("");
    }

    @Test
    public void invalidNumerals() {
        assertFalse(Roman.isValid("IIII"));
        assertFalse(Roman.isValid("IC"));
        assertFalse(Roman.isValid("VX"));
        assertFalse(Roman.isValid("ABC"));
        assertFalse(Roman.isValid(null));
        assertTrue(Roman.isValid("XLII"));
        try {
            Roman.fromRoman("XZ");
            fail();
        } catch (IllegalArgumentException expected) {
            assertEquals("bad symbol: Z", expected.getMessage());
        }
    }
}
