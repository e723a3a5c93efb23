// The compile check of test_ds_java.py: one JVM compiles many variants,
// each directory on its own (its .java files, classes written into the
// directory), with the JDK's javax.tools compiler; prints "OK dir" or
// "FAIL dir: first message" per directory read from stdin.  A directory
// with a file main.txt (a class name) also runs that class's main() with
// System.out captured: "RUN dir <hash of the output>" or "RUNFAIL dir:
// exception" (a main that runs over 10 s is abandoned: RUNFAIL).
// Run: java tests/unit/operators/test_ds_java_javac.java < dirs
// SPDX-License-Identifier: MIT
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.ArrayList;
import java.util.List;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

public class CompileAll {
    public static void main(String[] args) throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StandardJavaFileManager fm = javac.getStandardFileManager(null, null, null);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String dir;
        while ((dir = in.readLine()) != null) {
            if (dir.isEmpty()) {
                continue;
            }
            List<File> files = new ArrayList<>();
            for (File f : new File(dir).listFiles()) {
                if (f.getName().endsWith(".java")) {
                    files.add(f);
                }
            }
            DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
            List<String> opts = List.of("-d", dir, "-proc:none", "-nowarn",
                                        "-Xlint:none", "-implicit:none");
            boolean ok = javac.getTask(null, fm, diags, opts, null,
                                       fm.getJavaFileObjectsFromFiles(files)).call();
            if (ok) {
                System.out.println("OK " + dir);
                File main = new File(dir, "main.txt");
                if (main.exists()) {
                    System.out.println(run(dir, Files.readString(main.toPath()).trim()));
                }
            } else {
                String msg = "?";
                for (Diagnostic<? extends JavaFileObject> d : diags.getDiagnostics()) {
                    if (d.getKind() == Diagnostic.Kind.ERROR) {
                        msg = "line " + d.getLineNumber() + ": "
                            + d.getMessage(null).split("\n")[0];
                        break;
                    }
                }
                System.out.println("FAIL " + dir + ": " + msg);
            }
            System.out.flush();
        }
        System.exit(0);
    }

    static String run(String dir, String cls) {
        PrintStream saved = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        ExecutorService ex = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r);
            t.setDaemon(true);
            return t;
        });
        try (URLClassLoader cl = new URLClassLoader(new URL[] {new File(dir).toURI().toURL()},
                                                    CompileAll.class.getClassLoader())) {
            System.setOut(new PrintStream(buf, true, "UTF-8"));
            Future<?> f = ex.submit(() -> {
                cl.loadClass(cls).getMethod("main", String[].class)
                    .invoke(null, (Object) new String[0]);
                return null;
            });
            f.get(10, TimeUnit.SECONDS);
            System.setOut(saved);
            byte[] h = MessageDigest.getInstance("SHA-256").digest(buf.toByteArray());
            return "RUN " + dir + " " + HexFormat.of().formatHex(h);
        } catch (Exception e) {
            System.setOut(saved);
            Throwable c = e.getCause() != null ? e.getCause() : e;
            return "RUNFAIL " + dir + ": " + c;
        } finally {
            System.setOut(saved);
            ex.shutdownNow();
        }
    }
}
