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
