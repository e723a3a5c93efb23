package corpus.roman;

/** Conversion between ints and Roman numerals, with strict validation. */
public final class Roman {

    private static final int[] VALUES = {1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1};
    private static final String[] SYMBOLS = {"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"};

    private Roman() {
    }

    /** Roman numeral for 1..3999. */
    public static String toRoman(int n) {
        if (n < 1 || n > 3999) {
            throw new IllegalArgumentException("out of range: " + n);
        }
        StringBuilder sb = new StringBuilder();
        int rest = n;
        for (int i = 0; i < VALUES.length; i++) {
            while (rest >= VALUES[i]) {
                sb.append(SYMBOLS[i]);
                rest -= VALUES[i];
            }
        }
        return sb.toString();
    }

    private static int digit(char c) {
        switch (c) {
            case 'I': return 1;
            case 'V': return 5;
            case 'X': return 10;
            case 'L': return 50;
            case 'C': return 100;
            case 'D': return 500;
            case 'M': return 1000;
            default: throw new IllegalArgumentException("bad symbol: " + c);
        }
    }

    /** Parses a canonical numeral; rejects empty, unknown symbols and non-canonical forms. */
    public static int fromRoman(String s) {
        if (s == null || s.isEmpty()) {
            throw new IllegalArgumentException("empty numeral");
        }
        int total = 0;
        for (int i = 0; i < s.length(); i++) {
            int v = digit(s.charAt(i));
            if (i + 1 < s.length() && v < digit(s.charAt(i + 1))) {
                total -= v;
            } else {
                total += v;
            }
        }
        if (total < 1 || total > 3999 || !toRoman(total).equals(s)) {
            throw new IllegalArgumentException("not canonical: " + s);
        }
        return total;
    }

    /** True when s is a canonical numeral. */
    public static boolean isValid(String s) {
        try {
            fromRoman(s);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
