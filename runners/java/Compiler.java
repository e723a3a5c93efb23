/* One javac reused across runs: a shared standard file manager (its jar
 * and module-image caches are where the warm speed comes from) wrapped by
 * one that keeps class files in memory.  SPDX-License-Identifier: MIT */
package litmus.jvm;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
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

    Compiler(List<File> classPath) throws IOException {
        if (javac == null)
            throw new IOException("no system Java compiler (a JRE only?)");
        std = javac.getStandardFileManager(null, Locale.ROOT,
                                           StandardCharsets.UTF_8);
        std.setLocation(StandardLocation.CLASS_PATH, classPath);
        fm = new MemoryManager(std);
    }

    /** The javac objects of files on disk. */
    Iterable<? extends JavaFileObject> files(List<File> files) {
        return std.getJavaFileObjectsFromFiles(files);
    }

    /** Compiles the units with the roots on the source path. */
    Result compile(List<JavaFileObject> units, List<File> sourcePath)
            throws IOException {
        std.setLocation(StandardLocation.SOURCE_PATH, sourcePath);
        outputs = new HashMap<>();
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        JavaCompiler.CompilationTask task =
            javac.getTask(null, fm, diags, OPTIONS, null, units);
        Result r = new Result();
        r.ok = task.call();
        for (Diagnostic<? extends JavaFileObject> d : diags.getDiagnostics())
            if (d.getKind() == Diagnostic.Kind.ERROR)
                r.errors.add(d);
        if (r.ok && r.errors.isEmpty())
            r.classes.putAll(outputs);
        else
            r.ok = false;
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
        JavacTask task = (JavacTask) javac.getTask(null, fm, diags, OPTIONS,
                                                   null, List.of(s));
        Shape shape = new Shape();
        for (CompilationUnitTree cu : task.parse()) {
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
