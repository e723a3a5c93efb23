/* The Java worker's server: started in-process by runners/jvm.c inside the
 * sandbox, it warms javac up, says `ready`, then answers `run` requests
 * (compile in memory, JUnit 4 tests, call expressions) until `quit`.
 * Requests and answers: harness/jvm_wire.h; fields: runners/jvm.h.
 * SPDX-License-Identifier: MIT */
package litmus.jvm;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TimeZone;
import java.util.TreeMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import javax.tools.Diagnostic;
import javax.tools.FileObject;
import javax.tools.JavaFileObject;
import org.junit.Test;
import org.junit.runner.Description;
import org.junit.runner.Request;
import org.junit.runner.RunWith;
import org.junit.runner.Runner;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;
import org.junit.runner.notification.RunNotifier;

public final class LitmusRunner {
    static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    static final int STDOUT_CAP = 16 << 10;
    static final long GRACE_MS = 200;      // for a stopped thread to end
    static final long STRAY_WAIT_MS = 100; // for the run's threads to end
    static final long ITEM_STACK = 16L << 20;
    /** The worker's stderr with LITMUS_JVM_DEBUG (a line of timings per
     *  run), else null. */
    static PrintStream debug;

    private final Compiler compiler;
    private final ClassLoader parent;
    private final Map<String, String> rootCache = new HashMap<>();
    /** Per program (source path, tests, path): the source-path files its
     *  fresh compile needed; the most recent 1024 programs. */
    private final Map<String, List<File>> needed =
        new java.util.LinkedHashMap<String, List<File>>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, List<File>> e) {
                return size() > 1024;
            }
        };
    /** A program's test classes from a full compile, for the variants
     *  whose classes have the same API (see compileRun); per program
     *  (source path, tests, path), the most recent 64. */
    private static final class Reuse {
        final String stamp;                       // the test sources'
        final Map<String, String> api = new HashMap<>(); // the rest's
        final Map<String, Compiler.Output> tests = new HashMap<>();
        final List<String> testNames = new ArrayList<>();

        Reuse(String stamp) {
            this.stamp = stamp;
        }
    }
    private final Map<String, Reuse> reuse =
        new java.util.LinkedHashMap<String, Reuse>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Reuse> e) {
                return size() > 64;
            }
        };
    private final PrintStream quiet =
        new PrintStream(OutputStream.nullOutputStream(), true);

    private LitmusRunner() throws IOException {
        List<File> cp = new ArrayList<>();
        for (String p : System.getProperty("java.class.path", "")
                            .split(File.pathSeparator))
            if (!p.isEmpty())
                cp.add(new File(p));
        this.compiler = new Compiler(cp);
        this.parent = new HidingLoader(LitmusRunner.class.getClassLoader());
    }

    /** The entry point runners/jvm.c calls, on the fds it made
     *  FileDescriptor objects of: never returns normally but at `quit` or
     *  the end of the request stream. */
    public static void serve(FileDescriptor inFd, FileDescriptor outFd,
                             int sandbox, String missing) throws Throwable {
        InputStream in = new BufferedInputStream(new FileInputStream(inFd),
                                                 1 << 16);
        OutputStream out = new BufferedOutputStream(
            new FileOutputStream(outFd), 1 << 16);
        LitmusRunner r = new LitmusRunner();
        System.setOut(r.quiet);
        if (System.getenv("LITMUS_JVM_DEBUG") != null)
            debug = System.err;
        System.setErr(debug != null ? System.err : r.quiet);
        r.saveDefaults();
        r.warmUp();
        new Wire.Out().put("op", "ready")
            .put("java_version", System.getProperty("java.version"))
            .put("sandbox", Integer.toString(sandbox))
            .put("missing", missing == null ? "" : missing)
            .send(out);
        for (;;) {
            Wire.Msg req = Wire.read(in);
            if (req == null || "quit".equals(req.get("op"))) {
                if (debug != null)
                    debug.printf("litmus-jvm: quit: %.1f ms of process CPU%n",
                        ((com.sun.management.OperatingSystemMXBean)
                             ManagementFactory.getOperatingSystemMXBean())
                            .getProcessCpuTime() / 1e6);
                return;
            }
            if (!"run".equals(req.get("op")))
                throw new IOException("unknown op " + req.get("op"));
            Answer a;
            try {
                a = r.run(Job.from(req));
            } catch (OutOfMemoryError e) {
                a = new Answer(req.get("nonce", ""));
                a.status = "memory";
                a.compile = "error";
                a.compileError = "java.lang.OutOfMemoryError in the worker";
            } catch (Exception | StackOverflowError | AssertionError e) {
                /* javac itself failed on this program (a crash, a stack
                 * overflow on deep nesting), or a test root could not be
                 * read: the program cannot be verified, which the engine
                 * treats as a compile error; the worker goes on with a
                 * fresh javac context. */
                a = new Answer(req.get("nonce", ""));
                a.compile = "error";
                a.compileError = "javac: internal error: " + firstLine(e.toString());
                r.compiler.dropPool();
            }
            a.send(out);
            if (!a.status.equals("done")) {
                System.out.flush();
                Runtime.getRuntime().halt(0);
            }
        }
    }

    /*** Requests and answers ***/

    /** One run request, decoded. */
    static final class Job {
        String nonce = "";
        String program = "";
        String programPath = "";
        String tests = "";
        List<String> select;   // null: every collected test
        boolean stopFirst;
        List<String> calls = new ArrayList<>();
        long budgetNs = 10_000_000_000L;
        long callBudgetNs = -1;
        // Warm-up only: test sources in memory instead of a path.
        List<JavaFileObject> memTests;

        static Job from(Wire.Msg m) {
            Job j = new Job();
            j.nonce = m.get("nonce", "");
            j.program = m.get("program", "");
            j.programPath = m.get("program_path", "");
            j.tests = m.get("tests", "");
            String sel = m.get("select");
            if (sel != null) {
                j.select = new ArrayList<>();
                for (String s : sel.split("\n"))
                    if (!s.isEmpty())
                        j.select.add(s);
            }
            j.stopFirst = "1".equals(m.get("stop_first"));
            j.calls = m.all("call");
            j.budgetNs = millis(m.get("budget_ms"), 10_000) * 1_000_000L;
            j.callBudgetNs = millis(m.get("call_budget_ms"), -1);
            if (j.callBudgetNs > 0)
                j.callBudgetNs *= 1_000_000L;
            return j;
        }

        private static long millis(String s, long dflt) {
            try {
                return s == null || s.isEmpty() ? dflt : Long.parseLong(s.trim());
            } catch (NumberFormatException e) {
                return dflt;
            }
        }
    }

    /** One answer, filled as the run goes. */
    static final class Answer {
        final String nonce;
        String compile = "ok";
        String compileError;
        long compileNs;
        List<String> testsAll = new ArrayList<>();
        List<String> tests = new ArrayList<>();
        List<String> calls = new ArrayList<>();
        byte[] stdout = new byte[0];
        String status = "done";
        boolean testsReused; // the test classes of an earlier compile

        Answer(String nonce) {
            this.nonce = nonce;
        }

        void send(OutputStream os) throws IOException {
            Wire.Out w = new Wire.Out().put("nonce", nonce).put("op", "done")
                .put("compile", compile);
            if (compileError != null)
                w.put("error", cut(compileError, 4000));
            w.put("compile_ms", Long.toString(compileNs / 1_000_000));
            if (testsReused)
                w.put("tests_reused", "1");
            w.put("tests_all", String.join("\n", testsAll));
            for (String t : tests)
                w.put("test", t);
            for (String c : calls)
                w.put("call", c);
            w.put("stdout", stdout);
            w.put("status", status);
            w.send(os);
        }
    }

    static String cut(String s, int max) {
        return s.length() > max ? s.substring(0, max) : s;
    }

    static String firstLine(String s) {
        if (s == null)
            return "";
        int nl = s.indexOf('\n');
        return cut(nl >= 0 ? s.substring(0, nl) : s, 2000);
    }

    static long cpu() {
        return MX.getCurrentThreadCpuTime();
    }

    /*** Class loaders ***/

    /** The parent of every run's loader: the JDK and JUnit, never the
     *  worker's own classes (a program cannot reach the answer stream
     *  through them by name). */
    static final class HidingLoader extends ClassLoader {
        private final ClassLoader app;

        HidingLoader(ClassLoader app) {
            super("litmus-parent", null);
            this.app = app;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve)
                throws ClassNotFoundException {
            if (name.startsWith("litmus.jvm."))
                throw new ClassNotFoundException(name);
            return app.loadClass(name);
        }
    }

    /** A run's classes, fresh each run: no static state survives it. */
    static final class RunLoader extends ClassLoader {
        private final Map<String, Compiler.Output> classes;

        RunLoader(ClassLoader parent, Map<String, Compiler.Output> classes) {
            super("litmus-run", parent);
            this.classes = classes;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            Compiler.Output o = classes.get(name);
            if (o == null)
                throw new ClassNotFoundException(name);
            byte[] b = o.bytes.toByteArray();
            return defineClass(name, b, 0, b.length);
        }
    }

    /*** Running under a CPU budget ***/

    /** What one item (a test, a call, the collection) did in its thread. */
    static final class Limited {
        volatile Object value;
        volatile Throwable thrown;
        volatile long cpuNs = -1;
        boolean timedOut; // over budget and stopped
        boolean stuck;    // over budget and would not stop
        boolean blocked;  // stopped for its wall time, not its CPU time
    }

    /** What an item runs. */
    interface Body {
        Object run() throws Throwable;
    }

    /** Runs body in a fresh thread of the run's group and watches its CPU
     *  time: over budgetNs it is stopped (Thread.stop); one that does not
     *  end within GRACE_MS is stuck, and the worker must go. */
    @SuppressWarnings("deprecation")
    static Limited limited(ThreadGroup group, ClassLoader ctx, long budgetNs,
                           Body body) throws InterruptedException {
        Limited l = new Limited();
        Thread t = new Thread(group, () -> {
            long c0 = cpu();
            try {
                l.value = body.run();
            } catch (Throwable e) {
                l.thrown = e;
            } finally {
                l.cpuNs = cpu() - c0;
            }
        }, "litmus-item", ITEM_STACK);
        t.setContextClassLoader(ctx);
        t.setDaemon(true);
        long w0 = System.nanoTime();
        /* A thread that blocks (sleeps, waits, deadlocks) uses no CPU:
         * it is stopped too after four times its CPU budget of wall time
         * and two seconds, rather than holding the worker until the
         * engine's deadline kills it. */
        long wallNs = budgetNs < 0 ? -1 : 4 * budgetNs + 2_000_000_000L;
        t.start();
        long seen = 0;
        while (t.isAlive()) {
            t.join(1);
            if (!t.isAlive())
                break;
            long c = MX.getThreadCpuTime(t.getId());
            if (c > seen)
                seen = c;
            boolean blocked = wallNs >= 0 && System.nanoTime() - w0 > wallNs;
            if ((budgetNs >= 0 && c > budgetNs) || blocked) {
                l.timedOut = true;
                l.blocked = blocked && !(c > budgetNs);
                t.stop();
                t.join(GRACE_MS);
                l.stuck = t.isAlive();
                break;
            }
        }
        if (l.timedOut || l.cpuNs < 0)
            l.cpuNs = seen;
        return l;
    }

    /** Everything printed during a run: the first STDOUT_CAP bytes. */
    static final class Capture extends OutputStream {
        final ByteArrayOutputStream kept = new ByteArrayOutputStream();

        @Override
        public synchronized void write(int b) {
            if (kept.size() < STDOUT_CAP)
                kept.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            int room = STDOUT_CAP - kept.size();
            if (room > 0)
                kept.write(b, off, Math.min(room, len));
        }
    }

    /*** One run ***/

    /** What the sources of a run are. */
    private static final class Sources {
        final List<JavaFileObject> units = new ArrayList<>();
        final List<File> sourcePath = new ArrayList<>();
        final Set<JavaFileObject> testUnits =
            java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        String testRoot;          // a test root directory (canonical), or null
        String testStamp;         // the test files' paths, sizes and times
        boolean guessed;          // the shape is the last one at that path
        Compiler.Source program;
        int programLines;
        boolean bare;
        String pkg = "";
        String mainType;
        Compiler.Source harness;  // the calls' class, when not bare
        int firstCallLine;        // line of call 0 in its file
    }

    /** With LITMUS_JVM_DEBUG, a line per run of where its time went. */
    private Answer run(Job job) throws Exception {
        if (debug == null)
            return run1(job);
        long w0 = System.nanoTime();
        timing = new Timing();
        Answer a = run1(job);
        long end = System.nanoTime();
        if (timing.ran == 0)
            timing.ran = timing.compiled = end;
        debug.printf("litmus-jvm: run %.2f ms wall: compile %.2f ms cpu "
                     + "(prepare %.2f parse %.2f, %s), tests %.2f ms wall (%d, %.2f ms cpu), "
                     + "after %.2f%n",
                     (end - w0) / 1e6, a.compileNs / 1e6, timing.prepare / 1e6, timing.parse / 1e6,
                     a.testsReused ? "test classes reused" : "all compiled",
                     (timing.ran - timing.compiled) / 1e6, timing.tests, timing.testCpu / 1e6,
                     (end - timing.ran) / 1e6);
        return a;
    }

    /** Where a run's time went (debug only). */
    private static final class Timing {
        long prepare, parse, compiled, ran, testCpu;
        int tests;
    }
    private Timing timing = new Timing();

    private Answer run1(Job job) throws Exception {
        Answer a = new Answer(job.nonce);
        long c0 = cpu();
        Sources s = new Sources();
        Compiler.Result res = null;
        String err = prepare(job, s, true);
        timing.prepare = cpu() - c0;
        List<Integer> active = new ArrayList<>();
        for (int i = 0; i < job.calls.size(); i++)
            active.add(i);
        String[] callErrors = new String[job.calls.size()];
        boolean compiled = false;
        if (err == null && s.guessed) {
            setHarness(job, s, active);
            res = compileRun(job, s);
            compiled = res.ok && shapeHolds(s, res);
            if (!compiled) {
                s = new Sources();
                res = null;
                err = prepare(job, s, false);
            }
        }
        while (err == null && !compiled) {
            setHarness(job, s, active);
            res = compileRun(job, s);
            if (res.ok)
                break;
            Set<Integer> dropped = new HashSet<>();
            for (Diagnostic<? extends JavaFileObject> d : res.errors) {
                int call = callOf(s, d, active);
                if (call == -1) {
                    err = Compiler.describe(d);
                    break;
                }
                if (call >= 0 && callErrors[call] == null) {
                    callErrors[call] = Compiler.describe(d);
                    dropped.add(call);
                }
            }
            if (err == null && dropped.isEmpty())
                err = res.errors.isEmpty() ? "javac: compilation failed"
                                           : Compiler.describe(res.errors.get(0));
            active.removeAll(dropped);
        }
        a.compileNs = cpu() - c0;
        if (err != null) {
            a.compile = "error";
            a.compileError = err;
            return a;
        }

        timing.compiled = System.nanoTime();
        a.testsReused = res.testNames != null;
        RunLoader loader = new RunLoader(parent, res.classes);
        ThreadGroup group = new ThreadGroup("litmus-run");
        Capture cap = new Capture();
        PrintStream ps = new PrintStream(cap, true, StandardCharsets.UTF_8);
        System.setOut(ps);
        System.setErr(ps);
        try {
            if (!job.tests.isEmpty() || job.memTests != null)
                runTests(job, s, res, loader, group, a);
            if (a.status.equals("done") && !job.calls.isEmpty())
                runCalls(job, s, loader, group, active, callErrors, a);
        } finally {
            System.setOut(quiet);
            System.setErr(quiet);
            restoreDefaults();
        }
        a.stdout = cap.kept.toByteArray();
        timing.ran = System.nanoTime();
        if (a.status.equals("done") && strays(group))
            a.status = "stray";
        else
            forget(group);
        clearScratch();
        return a;
    }

    /** Compiles a run's sources.  The first compile of a program (its
     *  source path, tests and path) is fresh, as `javac -sourcepath`;
     *  the sources it needed from the source path are remembered, and
     *  later compiles of the same program pass them explicitly to a
     *  reused context, which is several times faster.  Whatever fails
     *  there is compiled again fresh, whose verdict stands. */
    private Compiler.Result compileRun(Job job, Sources s) throws IOException {
        String key = s.sourcePath + "\0" + job.tests + "\0" + job.programPath;
        List<File> known = needed.get(key);
        boolean reusable = s.testStamp != null && job.calls.isEmpty();
        if (known != null) {
            Reuse ru = reusable ? reuse.get(key) : null;
            if (ru != null && ru.stamp.equals(s.testStamp)) {
                Compiler.Result r = compileReusing(s, known, ru);
                if (r != null)
                    return r;
            }
            List<JavaFileObject> units = new ArrayList<>(s.units);
            for (JavaFileObject f : compiler.files(known))
                units.add(f);
            Compiler.Result r = compiler.compilePooled(units);
            if (r.ok) {
                if (reusable)
                    remember(key, s, r);
                return r;
            }
        }
        Compiler.Result r = compiler.compileFresh(s.units, s.sourcePath);
        if (r.ok) {
            Set<File> files = new java.util.TreeSet<>();
            for (Compiler.Output o : r.classes.values())
                if (o.sibling != null && !(o.sibling instanceof Compiler.Source)
                    && !s.testUnits.contains(o.sibling)
                    && "file".equals(o.sibling.toUri().getScheme()))
                    files.add(new File(o.sibling.toUri()));
            needed.put(key, new ArrayList<>(files));
            if (reusable)
                remember(key, s, r);
        }
        return r;
    }

    /** Compiles the program and the source-path classes it needs without
     *  the test sources, and adds the test classes of an earlier full
     *  compile of the same program's tests when every class compiled has
     *  the API it had then (Compiler.api): the tests' class files would
     *  be the same, byte for byte, compiled again.  null when that
     *  cannot be said (the compile failed, a class differs), and the
     *  caller compiles everything. */
    private Compiler.Result compileReusing(Sources s, List<File> known, Reuse ru) {
        List<JavaFileObject> units = new ArrayList<>();
        for (JavaFileObject u : s.units)
            if (!s.testUnits.contains(u))
                units.add(u);
        for (JavaFileObject f : compiler.files(known))
            units.add(f);
        Compiler.Result r = compiler.compilePooled(units);
        if (!r.ok || r.classes.size() != ru.api.size())
            return null;
        for (Compiler.Output o : r.classes.values()) {
            String api = ru.api.get(o.className);
            if (api == null || !api.equals(Compiler.api(o.bytes.toByteArray())))
                return null;
        }
        r.classes.putAll(ru.tests);
        r.testNames = ru.testNames;
        return r;
    }

    /** Keeps the test classes of a full compile for compileReusing, when
     *  none is kept for these tests yet. */
    private void remember(String key, Sources s, Compiler.Result r) {
        Reuse old = reuse.get(key);
        if (old != null && old.stamp.equals(s.testStamp))
            return;
        Reuse ru = new Reuse(s.testStamp);
        for (Compiler.Output o : r.classes.values()) {
            if (isTestSource(s, o.sibling)) {
                ru.tests.put(o.className, o);
                if (!isLocalClass(o.className))
                    ru.testNames.add(o.className);
                continue;
            }
            String api = Compiler.api(o.bytes.toByteArray());
            if (api == null) {
                reuse.remove(key);
                return;
            }
            ru.api.put(o.className, api);
        }
        ru.testNames.sort(null);
        reuse.put(key, ru);
    }

    /** The shape of the last text parsed per program path, when it has a
     *  public type: the next text at that path is compiled as having the
     *  same shape (its file named after that type) without a parse of its
     *  own, and shapeHolds says whether it had (else prepare parses). */
    private final Map<String, Compiler.Shape> shapes =
        new java.util.LinkedHashMap<String, Compiler.Shape>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Compiler.Shape> e) {
                return size() > 1024;
            }
        };

    /** Whether a compile of a text whose shape was guessed proves the
     *  guess: it succeeded and the text gave a public top-level type of
     *  the guessed name and package (binary name pkg.Type: no nested
     *  class has one).  javac accepts a public top-level type only in a
     *  file of its name, so it is the only public one and the parser
     *  would have named it mainType; a type declaration there, the text
     *  is not bare. */
    private static boolean shapeHolds(Sources s, Compiler.Result r) {
        String name = s.pkg.isEmpty() ? s.mainType : s.pkg + "." + s.mainType;
        Compiler.Output o = r.classes.get(name);
        return o != null && o.sibling == s.program &&
               (Compiler.classFlags(o.bytes.toByteArray()) & 0x0001) != 0;
    }

    /** The units and source path of a run; a message when a path cannot
     *  be read. */
    private String prepare(Job job, Sources s, boolean mayGuess)
            throws IOException {
        long q0 = cpu();
        Compiler.Shape shape = null;
        if (mayGuess && job.memTests == null && !job.tests.isEmpty() &&
            job.calls.isEmpty() && !job.programPath.isEmpty()) {
            shape = shapes.get(job.programPath);
            s.guessed = shape != null;
        }
        if (shape == null) {
            shape = compiler.parse(job.program);
            if (shape.mainPublic && !job.programPath.isEmpty())
                shapes.put(job.programPath, shape);
        }
        timing.parse = cpu() - q0;
        s.bare = shape.mainType == null;
        s.pkg = s.bare ? "" : shape.pkg;
        s.mainType = shape.mainType;
        s.programLines = (int) job.program.chars().filter(c -> c == '\n').count() + 1;
        File programFile = null;
        if (!job.programPath.isEmpty()) {
            programFile = new File(job.programPath).getCanonicalFile();
            File dir = programFile.getParentFile();
            String root = stripPackage(dir.getPath(), s.pkg);
            s.sourcePath.add(new File(root));
        }
        if (job.memTests != null) {
            s.units.addAll(job.memTests);
            s.testUnits.addAll(job.memTests);
        } else if (!job.tests.isEmpty()) {
            File t = new File(job.tests).getCanonicalFile();
            List<File> files = new ArrayList<>();
            if (t.isDirectory()) {
                s.testRoot = t.getPath();
                s.sourcePath.add(t);
                walk(t, files);
            } else if (t.isFile()) {
                files.add(t);
                s.sourcePath.add(new File(testRoot(t)));
            } else {
                return "tests: no such file or directory: " + job.tests;
            }
            if (programFile != null)
                files.remove(programFile);
            StringBuilder stamp = new StringBuilder();
            for (File f : files)
                stamp.append(f.getPath()).append('\0').append(f.length())
                     .append('\0').append(f.lastModified()).append('\n');
            s.testStamp = stamp.toString();
            for (JavaFileObject u : compiler.files(files)) {
                s.units.add(u);
                s.testUnits.add(u);
            }
        }
        return null;
    }

    private static void walk(File dir, List<File> out) {
        File[] list = dir.listFiles();
        if (list == null)
            return;
        Arrays.sort(list);
        for (File f : list) {
            if (f.isDirectory())
                walk(f, out);
            else if (f.getName().endsWith(".java"))
                out.add(f);
        }
    }

    private static String stripPackage(String dir, String pkg) {
        if (pkg.isEmpty())
            return dir;
        String tail = "/" + pkg.replace('.', '/');
        return dir.endsWith(tail) ? dir.substring(0, dir.length() - tail.length())
                                  : dir;
    }

    /** The source root of a test file: its directory minus the folders
     *  of its package (from javac's parser), remembered per path. */
    private String testRoot(File f) throws IOException {
        String key = f.getPath() + ":" + f.lastModified();
        String root = rootCache.get(key);
        if (root == null) {
            String text = Files.readString(f.toPath(), StandardCharsets.UTF_8);
            root = stripPackage(f.getParent(), compiler.parse(text).pkg);
            rootCache.put(key, root);
        }
        return root;
    }

    /** The program's unit and the calls' harness for the active calls.
     *  Each call sits alone on its line, so an error's line names it. */
    private void setHarness(Job job, Sources s, List<Integer> active) {
        s.units.remove(s.program);
        if (s.harness != null)
            s.units.remove(s.harness);
        s.harness = null;
        StringBuilder h = new StringBuilder();
        int line;
        if (s.bare) {
            h.append("class LitmusMethod { ").append(job.program).append('\n');
            line = s.programLines + 1;
        } else {
            if (!s.pkg.isEmpty())
                h.append("package ").append(s.pkg).append(";\n");
            h.append("@SuppressWarnings(\"all\") final class LitmusCalls {\n");
            line = s.pkg.isEmpty() ? 2 : 3;
        }
        if (!job.calls.isEmpty()) {
            h.append("interface litmus$V { Object call() throws Throwable; } ")
             .append("interface litmus$R { void run() throws Throwable; } ")
             .append("static final Object litmus$VOID = new Object(); ")
             .append("static Object litmus$of(litmus$V v) throws Throwable ")
             .append("{ return v.call(); } ")
             .append("static Object litmus$of(litmus$R r) throws Throwable ")
             .append("{ r.run(); return litmus$VOID; }\n");
            line++;
        }
        s.firstCallLine = line;
        for (int i : active)
            h.append("Object litmus$call").append(i)
             .append("() throws Throwable { return litmus$of(() -> ")
             .append(job.calls.get(i).replace('\n', ' ').replace('\r', ' '))
             .append("); }\n");
        h.append("}\n");
        if (s.bare) {
            s.program = new Compiler.Source("LitmusMethod.java", h.toString());
        } else {
            String dir = s.pkg.isEmpty() ? "" : s.pkg.replace('.', '/') + "/";
            s.program = new Compiler.Source(dir + s.mainType + ".java",
                                            job.program);
            if (!job.calls.isEmpty()) {
                s.harness = new Compiler.Source(dir + "LitmusCalls.java",
                                                h.toString());
                s.units.add(0, s.harness);
            }
        }
        s.units.add(0, s.program);
    }

    /** Which active call an error is in: its index, -1 when it is in the
     *  program or the tests, -2 in the harness outside any call. */
    private static int callOf(Sources s, Diagnostic<? extends JavaFileObject> d,
                              List<Integer> active) {
        JavaFileObject src = d.getSource();
        long line = d.getLineNumber();
        boolean inHarness = s.bare ? src == s.program && line > s.programLines
                                   : src != null && src == s.harness;
        if (!inHarness)
            return -1;
        long k = line - s.firstCallLine;
        if (k >= 0 && k < active.size())
            return active.get((int) k);
        return active.isEmpty() ? -1 : -2;
    }

    /*** Tests ***/

    private static final class Collected {
        final TreeMap<String, Object[]> byId = new TreeMap<>(); // id -> {Class, Description}
    }

    private void runTests(Job job, Sources s, Compiler.Result res,
                          RunLoader loader, ThreadGroup group, Answer a)
            throws Exception {
        List<String> names = new ArrayList<>();
        if (res.testNames != null) {
            names.addAll(res.testNames);
        } else {
            for (Compiler.Output o : res.classes.values())
                if (isTestSource(s, o.sibling) && !isLocalClass(o.className))
                    names.add(o.className);
            names.sort(null);
        }
        long budget = job.budgetNs;
        Limited col = limited(group, loader, budget, () -> collect(names, loader));
        budget -= col.cpuNs;
        if (col.thrown != null || col.value == null) {
            Throwable e = col.thrown;
            a.tests.add((e instanceof OutOfMemoryError ? "M" : col.timedOut ? "T" : "F")
                        + "\t" + col.cpuNs / 1_000_000 + "\t<collection>\t"
                        + (col.timedOut ? "over the CPU budget" : firstLine(String.valueOf(e))));
            a.status = col.stuck ? "timeout"
                     : e instanceof OutOfMemoryError ? "memory" : "done";
            return;
        }
        Collected c = (Collected) col.value;
        a.testsAll.addAll(c.byId.keySet());
        List<String> order = job.select != null ? job.select
                                                : new ArrayList<>(c.byId.keySet());
        for (String id : order) {
            Object[] t = c.byId.get(id);
            if (t == null) {
                a.tests.add("F\t0\t" + id + "\tno such test");
                if (job.stopFirst)
                    break;
                continue;
            }
            Class<?> cls = (Class<?>) t[0];
            Description desc = (Description) t[1];
            String[] outcome = new String[2];
            Limited l = limited(group, loader, Math.max(0, budget),
                                () -> runOne(cls, desc, outcome));
            budget -= l.cpuNs;
            timing.testCpu += l.cpuNs;
            timing.tests++;
            String kind;
            String msg;
            if (l.timedOut) {
                kind = "T";
                msg = l.blocked ? "blocked past the time budget"
                                : "over the CPU budget";
            } else if (l.thrown instanceof OutOfMemoryError ||
                       "M".equals(outcome[0])) {
                kind = "M";
                msg = outcome[1] != null ? outcome[1] : firstLine(String.valueOf(l.thrown));
            } else if (l.thrown != null) {
                kind = "F";
                msg = firstLine(String.valueOf(l.thrown));
            } else {
                kind = outcome[0];
                msg = outcome[1] == null ? "" : outcome[1];
            }
            a.tests.add(kind + "\t" + l.cpuNs / 1_000_000 + "\t" + id + "\t" + msg);
            if (l.stuck) {
                a.status = "timeout";
                return;
            }
            if (kind.equals("M")) {
                a.status = "memory";
                return;
            }
            if (kind.equals("T"))
                return;
            if (job.stopFirst && kind.equals("F"))
                return;
        }
    }

    private static boolean isTestSource(Sources s, FileObject sibling) {
        if (sibling == null)
            return false;
        if (s.testUnits.contains(sibling))
            return true;
        if (s.testRoot == null || sibling instanceof Compiler.Source)
            return false;
        String p = sibling.toUri().getPath();
        return p != null && p.startsWith(s.testRoot + "/");
    }

    /** Anonymous and local classes (Outer$1, Outer$1Local) are never test
     *  classes JUnit would be given. */
    private static boolean isLocalClass(String name) {
        int d = name.lastIndexOf('$');
        return d >= 0 && d + 1 < name.length() &&
               Character.isDigit(name.charAt(d + 1));
    }

    /** The JUnit 4 test classes among names and their tests' ids. */
    private static Collected collect(List<String> names, ClassLoader loader)
            throws Exception {
        Collected c = new Collected();
        for (String n : names) {
            Class<?> cls = Class.forName(n, false, loader);
            if (!isTestClass(cls))
                continue;
            Runner r = Request.aClass(cls).getRunner();
            leaves(cls, r.getDescription(), c);
        }
        return c;
    }

    private static void leaves(Class<?> cls, Description d, Collected c) {
        if (d.isTest()) {
            if (d.getMethodName() != null)
                c.byId.putIfAbsent(d.getClassName() + "#" + d.getMethodName(),
                                   new Object[] {cls, d});
            return;
        }
        for (Description k : d.getChildren())
            leaves(cls, k, c);
    }

    private static boolean isTestClass(Class<?> cls) {
        int m = cls.getModifiers();
        if (Modifier.isAbstract(m) || Modifier.isInterface(m) ||
            cls.isAnnotation() || cls.isEnum())
            return false;
        if (cls.isMemberClass() && !Modifier.isStatic(m))
            return false;
        if (cls.isAnnotationPresent(RunWith.class))
            return true;
        for (Class<?> k = cls; k != null && k != Object.class; k = k.getSuperclass())
            for (Method meth : k.getDeclaredMethods())
                if (meth.isAnnotationPresent(Test.class))
                    return true;
        return false;
    }

    /** Runs one test: outcome[0] = P, F, S or M, outcome[1] the message. */
    private static Object runOne(Class<?> cls, Description desc,
                                 String[] outcome) {
        outcome[0] = "P";
        Runner r = Request.aClass(cls).filterWith(desc).getRunner();
        RunNotifier n = new RunNotifier();
        n.addListener(new RunListener() {
            @Override
            public void testFailure(Failure f) {
                if (!outcome[0].equals("P"))
                    return;
                Throwable e = f.getException();
                outcome[0] = e instanceof OutOfMemoryError ? "M" : "F";
                outcome[1] = firstLine(String.valueOf(e));
            }

            @Override
            public void testAssumptionFailure(Failure f) {
                if (outcome[0].equals("P")) {
                    outcome[0] = "S";
                    outcome[1] = firstLine(f.getMessage());
                }
            }

            @Override
            public void testIgnored(Description d) {
                if (outcome[0].equals("P")) {
                    outcome[0] = "S";
                    outcome[1] = "ignored";
                }
            }
        });
        r.run(n);
        return null;
    }

    /*** Calls ***/

    private void runCalls(Job job, Sources s, RunLoader loader,
                          ThreadGroup group, List<Integer> active,
                          String[] callErrors, Answer a) throws Exception {
        String cname = s.bare ? "LitmusMethod"
                     : (s.pkg.isEmpty() ? "" : s.pkg + ".") + "LitmusCalls";
        long total = job.budgetNs;
        Object[] harness = new Object[2]; // instance, the VOID marker
        for (int i = 0; i < job.calls.size(); i++) {
            if (callErrors[i] != null) {
                a.calls.add("error\t0\t\t" + callErrors[i]);
                continue;
            }
            long budget = job.callBudgetNs > 0 ? Math.min(job.callBudgetNs, total)
                                               : total;
            final int k = i;
            Limited l = limited(group, loader, Math.max(0, budget),
                                () -> call(cname, loader, harness, k));
            total -= l.cpuNs;
            long ms = l.cpuNs / 1_000_000;
            if (l.timedOut) {
                a.calls.add("timeout\t" + ms + "\t\t");
                if (l.stuck) {
                    a.status = "timeout";
                    return;
                }
                continue;
            }
            Throwable e = l.thrown;
            if (e instanceof InvocationTargetException && e.getCause() != null)
                e = e.getCause();
            if (e instanceof ExceptionInInitializerError && e.getCause() != null)
                e = e.getCause();
            if (e != null) {
                a.calls.add("raised\t" + ms + "\t" + e.getClass().getName() + "\t"
                            + firstLine(e.getMessage()));
                if (e instanceof OutOfMemoryError) {
                    a.status = "memory";
                    return;
                }
                continue;
            }
            a.calls.add("ok\t" + ms + "\t" + l.value);
        }
    }

    /** One call in the item thread: "type\trepr". */
    private static Object call(String cname, ClassLoader loader,
                               Object[] harness, int i) throws Throwable {
        if (harness[0] == null) {
            Class<?> cls = Class.forName(cname, true, loader);
            Constructor<?> ctor = cls.getDeclaredConstructor();
            ctor.setAccessible(true);
            Field v = cls.getDeclaredField("litmus$VOID");
            v.setAccessible(true);
            harness[1] = v.get(null);
            harness[0] = ctor.newInstance();
        }
        Method m = harness[0].getClass().getDeclaredMethod("litmus$call" + i);
        m.setAccessible(true);
        Object v;
        try {
            v = m.invoke(harness[0]);
        } catch (InvocationTargetException e) {
            throw e.getCause() != null ? e.getCause() : e;
        }
        if (v == harness[1])
            return "void\tvoid";
        String type = v == null ? "null" : Repr.typeName(v.getClass());
        return type + "\t" + Repr.of(v);
    }

    /*** After a run ***/

    /** Whether threads the run started are still alive (after a short
     *  wait for ones that are ending). */
    private static boolean strays(ThreadGroup group) throws InterruptedException {
        long end = System.nanoTime() + STRAY_WAIT_MS * 1_000_000;
        for (;;) {
            Thread[] ts = new Thread[group.activeCount() + 8];
            int n = group.enumerate(ts, true);
            boolean any = false;
            for (int i = 0; i < n; i++) {
                /* The common fork-join pool's workers (parallel streams)
                 * are the JDK's: idle ones are no program's threads. */
                if (ts[i] instanceof ForkJoinWorkerThread &&
                    ((ForkJoinWorkerThread) ts[i]).getPool() ==
                        ForkJoinPool.commonPool() &&
                    ForkJoinPool.commonPool().isQuiescent())
                    continue;
                any |= ts[i].isAlive();
            }
            if (!any)
                return false;
            if (System.nanoTime() > end)
                return true;
            Thread.sleep(2);
        }
    }

    /** Removes a run's empty thread group from its parent, which would
     *  otherwise keep one per run. */
    @SuppressWarnings("removal")
    private static void forget(ThreadGroup group) {
        try {
            group.destroy();
        } catch (IllegalThreadStateException e) {
            // Not empty (a pool thread of the JDK): it stays.
        }
    }

    /** The JVM-wide defaults a program may change (system properties,
     *  locales, time zone, the uncaught-exception handler), as they were
     *  before the first run: no run sees what another set. */
    private Properties props0;
    private Locale locale0, format0, display0;
    private TimeZone zone0;

    private void saveDefaults() {
        props0 = new Properties();
        props0.putAll(System.getProperties());
        locale0 = Locale.getDefault();
        format0 = Locale.getDefault(Locale.Category.FORMAT);
        display0 = Locale.getDefault(Locale.Category.DISPLAY);
        zone0 = TimeZone.getDefault();
    }

    private void restoreDefaults() {
        Properties p = new Properties();
        p.putAll(props0);
        System.setProperties(p);
        Locale.setDefault(locale0);
        Locale.setDefault(Locale.Category.FORMAT, format0);
        Locale.setDefault(Locale.Category.DISPLAY, display0);
        TimeZone.setDefault(zone0);
        Thread.setDefaultUncaughtExceptionHandler(null);
    }

    /** Empties the working directory (the scratch), never following a
     *  link out of it. */
    private static void clearScratch() {
        Path root = Paths.get("").toAbsolutePath();
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<Path>() {
                @Override
                public FileVisitResult visitFile(Path f, BasicFileAttributes at)
                        throws IOException {
                    Files.deleteIfExists(f);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e)
                        throws IOException {
                    if (!d.equals(root))
                        Files.deleteIfExists(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            // What cannot be removed stays; the next run sees it.
        }
    }

    /*** Warm-up ***/

    private static final String WARM_PROGRAM =
        "package litmuswarm;\n" +
        "import java.util.*;\n" +
        "public class Warm {\n" +
        "    private final List<Integer> xs = new ArrayList<>();\n" +
        "    public static int sum(int[] a) { int s = 0; for (int x : a) s += x; return s; }\n" +
        "    public void add(int x) { if (x > 0 && x < 100) xs.add(x); }\n" +
        "    public Map<String, Integer> count(String s) {\n" +
        "        Map<String, Integer> m = new TreeMap<>();\n" +
        "        for (String w : s.split(\" \")) m.merge(w, 1, Integer::sum);\n" +
        "        return m;\n" +
        "    }\n" +
        "}\n";
    private static final String WARM_TEST =
        "package litmuswarm;\n" +
        "import org.junit.Test;\n" +
        "import static org.junit.Assert.*;\n" +
        "public class WarmTest {\n" +
        "    @Test public void sums() { assertEquals(6, Warm.sum(new int[] {1, 2, 3})); }\n" +
        "    @Test public void counts() { assertEquals(1, (int) new Warm().count(\"a b\").get(\"a\")); }\n" +
        "}\n";

    /** Compiles and runs a small class and its test a few times, so the
     *  first real request finds javac and JUnit loaded and compiled. */
    private void warmUp() throws Exception {
        for (int i = 0; i < 3; i++) {
            Job j = new Job();
            j.program = WARM_PROGRAM;
            j.memTests = List.of(new Compiler.Source("litmuswarm/WarmTest.java",
                                                     WARM_TEST));
            j.calls = List.of("Warm.sum(new int[] {1, 2})", "new Warm().count(\"x y x\")",
                              "new Warm().add(3)");
            Answer a = run(j);
            if (!a.compile.equals("ok"))
                throw new IOException("warm-up failed: " + a.compileError);
        }
    }
}
