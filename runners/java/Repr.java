/* The repr of a call's value: the same text for the same value in any JVM
 * (no identity hash codes, no hidden class addresses).  Cut at 2,000
 * characters.  SPDX-License-Identifier: MIT */
package litmus.jvm;

import java.lang.reflect.Array;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Map;

final class Repr {
    static final int MAX = 2000;

    private final StringBuilder sb = new StringBuilder();
    private final IdentityHashMap<Object, Boolean> open = new IdentityHashMap<>();

    private Repr() {}

    static String of(Object o) {
        Repr r = new Repr();
        r.add(o);
        return r.sb.length() > MAX ? r.sb.substring(0, MAX) : r.sb.toString();
    }

    /** getClass().getName() without what differs between JVMs: a lambda's
     *  or hidden class's address suffix. */
    static String typeName(Class<?> c) {
        String n = c.getName();
        int at = n.indexOf("$$Lambda");
        if (at >= 0)
            return n.substring(0, at + 8);
        int slash = n.indexOf('/');
        return slash >= 0 ? n.substring(0, slash) : n;
    }

    private boolean full() {
        return sb.length() > MAX;
    }

    private void add(Object o) {
        if (full())
            return;
        if (o == null) {
            sb.append("null");
        } else if (o instanceof String) {
            quote((String) o, '"');
        } else if (o instanceof Character) {
            quote(String.valueOf((char) (Character) o), '\'');
        } else if (o instanceof Number || o instanceof Boolean) {
            sb.append(o);
        } else if (o.getClass().isArray()) {
            if (open.put(o, Boolean.TRUE) != null) {
                sb.append("[...]");
                return;
            }
            sb.append('[');
            int n = Array.getLength(o);
            for (int i = 0; i < n && !full(); i++) {
                if (i > 0)
                    sb.append(", ");
                add(Array.get(o, i));
            }
            sb.append(']');
            open.remove(o);
        } else if (o instanceof Collection) {
            if (open.put(o, Boolean.TRUE) != null) {
                sb.append("[...]");
                return;
            }
            sb.append('[');
            boolean first = true;
            for (Object e : (Collection<?>) o) {
                if (full())
                    break;
                if (!first)
                    sb.append(", ");
                first = false;
                add(e);
            }
            sb.append(']');
            open.remove(o);
        } else if (o instanceof Map) {
            if (open.put(o, Boolean.TRUE) != null) {
                sb.append("{...}");
                return;
            }
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) o).entrySet()) {
                if (full())
                    break;
                if (!first)
                    sb.append(", ");
                first = false;
                add(e.getKey());
                sb.append('=');
                add(e.getValue());
            }
            sb.append('}');
            open.remove(o);
        } else if (ownToString(o.getClass())) {
            sb.append(typeName(o.getClass())).append("@?");
        } else {
            sb.append(o);
        }
    }

    private static boolean ownToString(Class<?> c) {
        try {
            return c.getMethod("toString").getDeclaringClass() == Object.class;
        } catch (NoSuchMethodException e) {
            return true;
        }
    }

    /** Java's escapes: \b \t \n \f \r \" \' \\, other control characters
     *  as \\uXXXX. */
    private void quote(String s, char q) {
        sb.append(q);
        for (int i = 0; i < s.length() && !full(); i++) {
            char c = s.charAt(i);
            switch (c) {
            case '\b': sb.append("\\b"); break;
            case '\t': sb.append("\\t"); break;
            case '\n': sb.append("\\n"); break;
            case '\f': sb.append("\\f"); break;
            case '\r': sb.append("\\r"); break;
            case '\\': sb.append("\\\\"); break;
            case '"':
                sb.append(q == '"' ? "\\\"" : "\"");
                break;
            case '\'':
                sb.append(q == '\'' ? "\\'" : "'");
                break;
            default:
                if (c < 0x20 || c == 0x7f)
                    sb.append(String.format("\\u%04x", (int) c));
                else
                    sb.append(c);
            }
        }
        sb.append(q);
    }
}
