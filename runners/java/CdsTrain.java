/* Build time only (runners/CMakeLists.txt): run with the JDK's source
 * launcher and -XX:ArchiveClassesAtExit, it starts the runner the way
 * runners/jvm.c does and lets it warm up and quit, so that the dynamic
 * CDS archive holds the JDK's and JUnit's classes a worker loads before
 * `ready` (javac's above all).  The runner's own classes come from a
 * class directory through a loader of their own, as they are not on the
 * class path the worker has; the worker defines them from bytes, which
 * no archive can hold.  Not embedded in litmus.
 * SPDX-License-Identifier: MIT */
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

public class CdsTrain {
    /** args: the runner's class directory; the working directory (the
     *  runner empties it, as it does its scratch directory). */
    public static void main(String[] args) throws Throwable {
        Path work = Path.of(args[1]).toAbsolutePath();
        if (!Path.of("").toAbsolutePath().equals(work))
            throw new IllegalStateException("not run in " + work);
        URL classes = new File(args[0]).toURI().toURL();
        ClassLoader loader = new URLClassLoader(
            new URL[] {classes}, ClassLoader.getSystemClassLoader());
        Class<?> runner = Class.forName("litmus.jvm.LitmusRunner", true,
                                        loader);
        Method serve = runner.getMethod(
            "serve", FileDescriptor.class, FileDescriptor.class, int.class,
            String.class);
        // One request, quit (harness/jvm_wire.h).
        Path quit = work.resolve("quit.msg");
        Files.write(quit, "LTJ 1\nop 4\nquit\n".getBytes(
            StandardCharsets.US_ASCII));
        try (FileInputStream in = new FileInputStream(quit.toFile());
             FileOutputStream out = new FileOutputStream("/dev/null")) {
            serve.invoke(null, in.getFD(), out.getFD(), 0, "");
        }
        System.exit(0);
    }
}
