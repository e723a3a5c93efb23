// Independent check of Java dataset records (tests/e2e/t031*-dataset-java*):
// compiles each given source tree with javac's API and runs its JUnit 4
// tests, outside litmus and its sandbox.  One JVM for every tree.
//
//   java -cp junit4.jar:hamcrest-core.jar Verify.java DIR...
//
// Each DIR holds src/ (the program's source root) and, optionally, test/
// (a JUnit 4 test root).  Prints one line per DIR:
//   DIR compile-error <first message>
//   DIR compiled                        (no tests)
//   DIR tests <run> <failed> <failing test ids, comma-separated>
//   DIR timeout                         (the tests ran over 4 s)
import java.io.*;
import java.net.*;
import java.nio.file.*;
import java.util.*;
import java.util.stream.*;
import javax.tools.*;
import org.junit.runner.*;
import org.junit.runner.notification.*;

public class Verify {
    public static void main(String[] args) throws Exception {
        JavaCompiler jc = ToolProvider.getSystemJavaCompiler();
        // One file manager for every tree: the platform's classes are
        // read once.
        StandardJavaFileManager fm = jc.getStandardFileManager(null, null, null);
        for (String d : args) {
            Path dir = Paths.get(d);
            Path out = Files.createTempDirectory("verify");
            List<File> files = new ArrayList<>();
            for (String sub : new String[] {"src", "test"}) {
                Path p = dir.resolve(sub);
                if (Files.isDirectory(p))
                    try (Stream<Path> s = Files.walk(p)) {
                        s.filter(f -> f.toString().endsWith(".java"))
                            .forEach(f -> files.add(f.toFile()));
                    }
            }
            DiagnosticCollector<JavaFileObject> dc = new DiagnosticCollector<>();
            {
                List<String> opts = List.of("-d", out.toString(), "-proc:none",
                    "-cp", System.getProperty("java.class.path"), "-nowarn");
                boolean ok = jc.getTask(null, fm, dc, opts, null,
                                        fm.getJavaFileObjectsFromFiles(files)).call();
                if (!ok) {
                    String msg = dc.getDiagnostics().stream()
                        .filter(x -> x.getKind() == Diagnostic.Kind.ERROR)
                        .map(x -> x.getLineNumber() + ": " + x.getMessage(null).split("\n")[0])
                        .findFirst().orElse("?");
                    System.out.println(d + " compile-error " + msg);
                    continue;
                }
            }
            Path test = dir.resolve("test");
            if (!Files.isDirectory(test)) {
                System.out.println(d + " compiled");
                continue;
            }
            List<String> classes = new ArrayList<>();
            try (Stream<Path> s = Files.walk(test)) {
                s.filter(f -> f.toString().endsWith(".java")).forEach(f -> {
                    String rel = test.relativize(f).toString();
                    classes.add(rel.substring(0, rel.length() - 5).replace('/', '.'));
                });
            }
            try (URLClassLoader cl = new URLClassLoader(new URL[] {out.toUri().toURL()},
                                                         Verify.class.getClassLoader())) {
                List<Class<?>> tests = new ArrayList<>();
                for (String c : classes) {
                    Class<?> k = cl.loadClass(c);
                    boolean isTest = Arrays.stream(k.getMethods())
                        .anyMatch(m -> m.isAnnotationPresent(org.junit.Test.class));
                    if (isTest && !java.lang.reflect.Modifier.isAbstract(k.getModifiers()))
                        tests.add(k);
                }
                // A fault may loop: the tests get 4 s, then count as a
                // timeout (and the thread is stopped).
                Result[] box = new Result[1];
                Thread th = new Thread(() -> box[0] = new JUnitCore().run(tests.toArray(new Class<?>[0])));
                th.setDaemon(true);
                th.start();
                th.join(4_000);
                if (box[0] == null) {
                    th.stop();
                    System.out.println(d + " timeout");
                    continue;
                }
                Result r = box[0];
                String failing = r.getFailures().stream()
                    .map(f -> f.getDescription().getClassName() + "#" + f.getDescription().getMethodName())
                    .sorted().collect(Collectors.joining(","));
                System.out.println(d + " tests " + r.getRunCount() + " " + r.getFailureCount() + " " + failing);
            }
        }
        System.out.flush();
        System.exit(0);
    }
}
