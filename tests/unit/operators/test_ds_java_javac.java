// The compile check of test_ds_java.py: one JVM compiles many variants,
// each directory on its own (its .java files, classes written into the
// directory), with the JDK's javax.tools compiler; prints "OK dir" or
// "FAIL dir: first message" per directory read from stdin.
// Run: java tests/unit/operators/test_ds_java_javac.java < dirs
// SPDX-License-Identifier: MIT
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
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
    }
}
