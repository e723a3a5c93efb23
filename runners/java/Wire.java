/* The Java mirror of harness/jvm_wire.c: "LTJ <nfields>\n", then per field
 * "<name> <nbytes>\n<bytes>\n".  The worker reads the engine's requests
 * and writes its answers with it.  SPDX-License-Identifier: MIT */
package litmus.jvm;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

final class Wire {
    static final int MAX_FIELDS = 100_000;
    static final int MAX_MSG = 64 << 20;
    static final int MAX_NAME = 32;

    private Wire() {}

    /** A decoded message: names and raw values, in order. */
    static final class Msg {
        final List<String> names = new ArrayList<>();
        final List<byte[]> values = new ArrayList<>();

        byte[] raw(String name) {
            int i = names.indexOf(name);
            return i < 0 ? null : values.get(i);
        }

        String get(String name) {
            byte[] v = raw(name);
            return v == null ? null : new String(v, StandardCharsets.UTF_8);
        }

        String get(String name, String dflt) {
            String v = get(name);
            return v == null ? dflt : v;
        }

        List<String> all(String name) {
            List<String> out = new ArrayList<>();
            for (int i = 0; i < names.size(); i++)
                if (names.get(i).equals(name))
                    out.add(new String(values.get(i), StandardCharsets.UTF_8));
            return out;
        }
    }

    /** Builds one message to send. */
    static final class Out {
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private int n;

        Out put(String name, byte[] value) {
            if (!validName(name))
                throw new IllegalArgumentException("bad field name " + name);
            body.writeBytes((name + " " + value.length + "\n")
                            .getBytes(StandardCharsets.US_ASCII));
            body.writeBytes(value);
            body.write('\n');
            n++;
            return this;
        }

        Out put(String name, String value) {
            return put(name, value.getBytes(StandardCharsets.UTF_8));
        }

        /** Writes the message and flushes; the caller keeps it under the
         *  caps (values are cut where they are made). */
        void send(OutputStream os) throws IOException {
            if (n > MAX_FIELDS || body.size() > MAX_MSG - 32)
                throw new IOException("answer over the wire's limits");
            os.write(("LTJ " + n + "\n").getBytes(StandardCharsets.US_ASCII));
            body.writeTo(os);
            os.flush();
        }
    }

    static boolean validName(String s) {
        if (s.isEmpty() || s.length() > MAX_NAME)
            return false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!((c >= 'a' && c <= 'z') || c == '_'))
                return false;
        }
        return true;
    }

    /** Reads one message; null at a clean end of stream before a header.
     *  A malformed message throws. */
    static Msg read(InputStream in) throws IOException {
        int c = in.read();
        if (c < 0)
            return null;
        if (c != 'L' || in.read() != 'T' || in.read() != 'J' ||
            in.read() != ' ')
            throw new IOException("bad message header");
        long nfields = number(in, 6, MAX_FIELDS);
        long total = 0;
        Msg m = new Msg();
        for (long i = 0; i < nfields; i++) {
            StringBuilder name = new StringBuilder();
            for (;;) {
                int ch = in.read();
                if (ch < 0)
                    throw new EOFException();
                if (ch == ' ')
                    break;
                if (!((ch >= 'a' && ch <= 'z') || ch == '_') ||
                    name.length() >= MAX_NAME)
                    throw new IOException("bad field name");
                name.append((char) ch);
            }
            if (name.length() == 0)
                throw new IOException("empty field name");
            int len = (int) number(in, 8, MAX_MSG);
            total += name.length() + 12 + len;
            if (total > MAX_MSG)
                throw new IOException("message over 64 MiB");
            byte[] v = in.readNBytes(len);
            if (v.length != len || in.read() != '\n')
                throw new IOException("truncated field");
            m.names.add(name.toString());
            m.values.add(v);
        }
        return m;
    }

    private static long number(InputStream in, int digits, long max)
            throws IOException {
        long v = 0;
        int i = 0;
        for (;; i++) {
            int ch = in.read();
            if (ch == '\n' && i > 0)
                break;
            if (ch < '0' || ch > '9' || i >= digits || (i == 1 && v == 0))
                throw new IOException("bad number");
            v = v * 10 + (ch - '0');
        }
        if (v > max)
            throw new IOException("number over the limit");
        return v;
    }
}
