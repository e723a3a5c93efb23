/* One javac reused across runs: a shared standard file manager (its jar
 * and module-image caches are where the warm speed comes from) wrapped by
 * one that keeps class files in memory.  SPDX-License-Identifier: MIT */
package litmus.jvm;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.tools.javac.api.JavacTaskPool;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.lang.model.element.Modifier;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

final class Compiler {
    /** A source held as text; its name is what the compiler sees. */
    static final class Source extends SimpleJavaFileObject {
        final String text;
        final String display; // "Foo.java"

        Source(String path, String text) {
            super(URI.create("string:///" + path), Kind.SOURCE);
            this.text = text;
            int slash = path.lastIndexOf('/');
            this.display = path.substring(slash + 1);
        }

        @Override
        public CharSequence getCharContent(boolean ignoreErrors) {
            return text;
        }
    }

    /** A class file written to memory. */
    static final class Output extends SimpleJavaFileObject {
        final String className;
        final FileObject sibling;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        Output(String className, FileObject sibling) {
            super(URI.create("mem:///" + className.replace('.', '/') + ".class"),
                  Kind.CLASS);
            this.className = className;
            this.sibling = sibling;
        }

        @Override
        public OutputStream openOutputStream() {
            bytes.reset();
            return bytes;
        }
    }

    private final class MemoryManager
            extends ForwardingJavaFileManager<StandardJavaFileManager> {
        MemoryManager(StandardJavaFileManager std) {
            super(std);
        }

        @Override
        public JavaFileObject getJavaFileForOutput(Location loc, String name,
                JavaFileObject.Kind kind, FileObject sibling) {
            Output o = new Output(name, sibling);
            outputs.put(name, o);
            return o;
        }
    }

    /** What one compile gave. */
    static final class Result {
        final List<Diagnostic<? extends JavaFileObject>> errors = new ArrayList<>();
        final Map<String, Output> classes = new HashMap<>();
        boolean ok;
        List<String> testNames; // when the test classes were reused: theirs
    }

    private final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    private final StandardJavaFileManager std;
    private final MemoryManager fm;
    private Map<String, Output> outputs = new HashMap<>();
    private static final List<String> OPTIONS = List.of(
        "-proc:none", "-g", "-nowarn", "-Xlint:none", "-implicit:class",
        "-encoding", "UTF-8", "-Xmaxerrs", "1000");
    /* javac's own pool of reusable contexts (the one JShell uses): a
     * context keeps the symbols it read from the JDK and the class path,
     * which a fresh task reads again each time (about two thirds of a
     * warm compile).  Only for compiles without a source path: a reused
     * context has listed each package once and would not see a helper
     * class on a source path again (see compilePooled). */
    private JavacTaskPool pool = new JavacTaskPool(1);
    private static final List<File> NO_PATH = List.of();
    private List<File> sourcePath = NO_PATH;

    Compiler(List<File> classPath) throws IOException {
        if (javac == null)
            throw new IOException("no system Java compiler (a JRE only?)");
        std = javac.getStandardFileManager(null, Locale.ROOT,
                                           StandardCharsets.UTF_8);
        std.setLocation(StandardLocation.CLASS_PATH, classPath);
        std.setLocation(StandardLocation.SOURCE_PATH, NO_PATH);
        fm = new MemoryManager(std);
    }

    /** The javac objects of files on disk. */
    Iterable<? extends JavaFileObject> files(List<File> files) {
        return std.getJavaFileObjectsFromFiles(files);
    }

    private void setSourcePath(List<File> path) throws IOException {
        if (!path.equals(sourcePath)) {
            sourcePath = null;
            std.setLocation(StandardLocation.SOURCE_PATH, path);
            sourcePath = path;
        }
    }

    /** Compiles the units as `javac -sourcepath` would, in a fresh
     *  context: classes named by the units are compiled from the source
     *  path on demand.  Every output keeps the source it came from. */
    Result compileFresh(List<JavaFileObject> units, List<File> path)
            throws IOException {
        setSourcePath(path);
        outputs = new HashMap<>();
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        JavaCompiler.CompilationTask task =
            javac.getTask(null, fm, diags, OPTIONS, null, units);
        boolean ok;
        try {
            ok = task.call();
        } finally {
            setSourcePath(NO_PATH);
        }
        return result(ok, diags);
    }

    /** Compiles the units alone (no source path) in a reused context.
     *  The caller passes every source the fresh compile of the same
     *  program needed, so the outcome is the same when it succeeds; a
     *  failure may come from what the context kept (a class missing from
     *  the list), so the caller compiles again fresh to know, and the
     *  pool is dropped: a failed task may leave symbols behind. */
    Result compilePooled(List<JavaFileObject> units) {
        outputs = new HashMap<>();
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        Boolean ok = pool.getTask(null, fm, diags, OPTIONS, null, units,
                                  t -> t.call());
        Result r = result(ok, diags);
        if (!r.ok)
            pool = new JavacTaskPool(1);
        return r;
    }

    /** Forgets every reused context (after a failure javac did not
     *  report as diagnostics). */
    void dropPool() {
        pool = new JavacTaskPool(1);
        outputs = new HashMap<>();
        try {
            setSourcePath(NO_PATH);
        } catch (IOException e) {
            sourcePath = null; // set again on the next compile
        }
    }

    private Result result(boolean ok,
                          DiagnosticCollector<JavaFileObject> diags) {
        Result r = new Result();
        for (Diagnostic<? extends JavaFileObject> d : diags.getDiagnostics())
            if (d.getKind() == Diagnostic.Kind.ERROR)
                r.errors.add(d);
        r.ok = ok && r.errors.isEmpty();
        if (r.ok)
            r.classes.putAll(outputs);
        outputs = new HashMap<>();
        return r;
    }

    /** The shape of a program's text, from javac's own parser. */
    static final class Shape {
        String pkg = "";       // "" for the unnamed package
        String mainType;       // the public top-level type, else the first
        boolean mainPublic;
    }

    Shape parse(String text) throws IOException {
        Source s = new Source("LitmusParse.java", text);
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        Iterable<? extends CompilationUnitTree> units =
            pool.getTask(null, fm, diags, OPTIONS, null, List.of(s), t -> {
                try {
                    return ((JavacTask) t).parse();
                } catch (IOException e) {
                    return List.<CompilationUnitTree>of();
                }
            });
        Shape shape = new Shape();
        for (CompilationUnitTree cu : units) {
            if (cu.getPackageName() != null)
                shape.pkg = cu.getPackageName().toString();
            for (Tree t : cu.getTypeDecls()) {
                if (!(t instanceof ClassTree))
                    continue;
                ClassTree c = (ClassTree) t;
                String name = c.getSimpleName().toString();
                if (name.isEmpty() || name.equals("<error>"))
                    continue;
                if (shape.mainType == null ||
                    c.getModifiers().getFlags().contains(Modifier.PUBLIC) &&
                    !shape.mainPublic) {
                    shape.mainPublic =
                        c.getModifiers().getFlags().contains(Modifier.PUBLIC);
                    shape.mainType = name;
                }
            }
        }
        return shape;
    }

    /** What code compiled against a class can depend on, from its class
     *  file: its name, modifiers (the InnerClasses entries too: a member
     *  class's own are only there), supertypes, generic signature,
     *  record components, permitted subclasses, enclosing method, and
     *  per field and method (synthetic ones aside: no source can name
     *  them) modifiers, name, descriptor, signature, thrown types and
     *  constant value (javac inlines constants into the code that reads
     *  them).  Two classes with the same text here cannot make javac
     *  compile a third class differently, nor fail to.  null for what it
     *  does not cover (annotation types: their retention and defaults
     *  reach their users) or cannot read. */
    static String api(byte[] b) {
        try {
            return new ApiReader(b).read();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** A class file's access flags, -1 when it cannot be read. */
    static int classFlags(byte[] b) {
        try {
            ApiReader r = new ApiReader(b);
            return r.header() ? r.in.readUnsignedShort() : -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static final class ApiReader {
        private final java.io.DataInputStream in;
        private Object[] pool;
        private int[] tags;

        ApiReader(byte[] b) {
            in = new java.io.DataInputStream(new java.io.ByteArrayInputStream(b));
        }

        private String utf(int i) {
            return (String) pool[i];
        }

        private String cls(int i) {
            return i == 0 ? "-" : utf((Integer) pool[i]);
        }

        private int minor, major;

        /** Reads up to the access flags; false when not a class file. */
        boolean header() throws IOException {
            if (in.readInt() != 0xCAFEBABE)
                return false;
            minor = in.readUnsignedShort();
            major = in.readUnsignedShort();
            int n = in.readUnsignedShort();
            pool = new Object[n];
            tags = new int[n];
            for (int i = 1; i < n; i++) {
                int tag = in.readUnsignedByte();
                tags[i] = tag;
                switch (tag) {
                case 1: pool[i] = in.readUTF(); break;
                case 3: pool[i] = "I" + in.readInt(); break;
                case 4: pool[i] = "F" + in.readInt(); break; // the bits
                case 5: pool[i] = "J" + in.readLong(); i++; break;
                case 6: pool[i] = "D" + in.readLong(); i++; break;
                case 7: case 8: case 16: case 19: case 20:
                    pool[i] = in.readUnsignedShort(); break;
                case 12:
                    pool[i] = new int[] {in.readUnsignedShort(), in.readUnsignedShort()};
                    break;
                case 9: case 10: case 11: case 17: case 18:
                    in.readInt(); break;
                case 15: in.readUnsignedByte(); in.readUnsignedShort(); break;
                default: return false;
                }
            }
            return true;
        }

        String read() throws IOException {
            if (!header())
                return null;
            StringBuilder out = new StringBuilder();
            out.append(major).append('.').append(minor).append('\n');
            int flags = in.readUnsignedShort();
            if ((flags & 0x2000) != 0) // ACC_ANNOTATION
                return null;
            out.append("class ").append(flags).append(' ')
               .append(cls(in.readUnsignedShort())).append(" extends ")
               .append(cls(in.readUnsignedShort()));
            int ni = in.readUnsignedShort();
            for (int i = 0; i < ni; i++)
                out.append(' ').append(cls(in.readUnsignedShort()));
            out.append('\n');
            List<String> members = new ArrayList<>();
            for (int kind = 0; kind < 2; kind++) {
                int count = in.readUnsignedShort();
                for (int i = 0; i < count; i++) {
                    int mf = in.readUnsignedShort();
                    StringBuilder m = new StringBuilder(kind == 0 ? "field " : "method ");
                    m.append(mf).append(' ').append(utf(in.readUnsignedShort()))
                     .append(' ').append(utf(in.readUnsignedShort()));
                    attributes(m);
                    if ((mf & 0x1000) == 0) // not ACC_SYNTHETIC
                        members.add(m.toString());
                }
            }
            attributes(out);
            members.sort(null);
            for (String m : members)
                out.append('\n').append(m);
            return out.toString();
        }

        /** The attributes that matter, appended to out; the rest skipped. */
        private void attributes(StringBuilder out) throws IOException {
            int count = in.readUnsignedShort();
            for (int i = 0; i < count; i++) {
                String name = utf(in.readUnsignedShort());
                int len = in.readInt();
                switch (name) {
                case "Signature":
                    out.append(" sig=").append(utf(in.readUnsignedShort()));
                    break;
                case "ConstantValue": {
                    int k = in.readUnsignedShort();
                    Object v = pool[k];
                    out.append(" const=").append(tags[k] == 8 ? "S" + utf((Integer) v) : v);
                    break;
                }
                case "Exceptions": {
                    int n = in.readUnsignedShort();
                    out.append(" throws");
                    for (int j = 0; j < n; j++)
                        out.append(' ').append(cls(in.readUnsignedShort()));
                    break;
                }
                case "InnerClasses": {
                    int n = in.readUnsignedShort();
                    List<String> es = new ArrayList<>();
                    for (int j = 0; j < n; j++) {
                        String inner = cls(in.readUnsignedShort());
                        String outer = cls(in.readUnsignedShort());
                        int sn = in.readUnsignedShort();
                        es.add(inner + " " + outer + " " + (sn == 0 ? "-" : utf(sn))
                               + " " + in.readUnsignedShort());
                    }
                    es.sort(null);
                    out.append(" inner=").append(es);
                    break;
                }
                case "EnclosingMethod": {
                    out.append(" enclosing=").append(cls(in.readUnsignedShort()));
                    int nt = in.readUnsignedShort();
                    if (nt != 0) {
                        int[] p = (int[]) pool[nt];
                        out.append('.').append(utf(p[0])).append(utf(p[1]));
                    }
                    break;
                }
                case "PermittedSubclasses": {
                    int n = in.readUnsignedShort();
                    out.append(" permits");
                    for (int j = 0; j < n; j++)
                        out.append(' ').append(cls(in.readUnsignedShort()));
                    break;
                }
                case "Record": {
                    int n = in.readUnsignedShort();
                    out.append(" record");
                    for (int j = 0; j < n; j++) {
                        out.append(" {").append(utf(in.readUnsignedShort())).append(' ')
                           .append(utf(in.readUnsignedShort()));
                        attributes(out);
                        out.append('}');
                    }
                    break;
                }
                default:
                    in.skipBytes(len);
                }
            }
        }
    }

    /** "File.java:LINE: first line of the message". */
    static String describe(Diagnostic<? extends JavaFileObject> d) {
        String msg = d.getMessage(Locale.ROOT);
        int nl = msg.indexOf('\n');
        if (nl >= 0)
            msg = msg.substring(0, nl);
        JavaFileObject src = d.getSource();
        if (src == null)
            return "javac: " + msg;
        return fileName(src) + ":" + d.getLineNumber() + ": " + msg;
    }

    static String fileName(JavaFileObject src) {
        if (src instanceof Source)
            return ((Source) src).display;
        String n = src.getName();
        int slash = n.lastIndexOf('/');
        return slash >= 0 ? n.substring(slash + 1) : n;
    }
}
