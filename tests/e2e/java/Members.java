// Reads pairs of Java files (original, rewritten) with javac's parser and
// prints, for every class of the original with two or more methods,
// constructors or member classes, whether the rewrite keeps their order:
//   reordered CLASS   or   same CLASS
// (tests/e2e/t0310-dataset-java.sh; run as `java Members.java A B ...`).
import com.sun.source.tree.*;
import com.sun.source.util.*;
import java.net.URI;
import java.util.*;
import javax.tools.*;

public class Members {
    static Map<String, List<String>> orders(String path) throws Exception {
        JavaCompiler jc = ToolProvider.getSystemJavaCompiler();
        try (StandardJavaFileManager fm = jc.getStandardFileManager(null, null, null)) {
            JavacTask t = (JavacTask) jc.getTask(null, fm, null, List.of("-proc:none"), null,
                fm.getJavaFileObjects(path));
            Map<String, List<String>> out = new LinkedHashMap<>();
            for (CompilationUnitTree cu : t.parse())
                new TreeScanner<Void, String>() {
                    @Override public Void visitClass(ClassTree c, String outer) {
                        String name = outer + "." + c.getSimpleName();
                        List<String> members = new ArrayList<>();
                        for (Tree m : c.getMembers()) {
                            if (m instanceof MethodTree mt)
                                members.add(mt.getName() + "(" + mt.getParameters().size() + ")");
                            else if (m instanceof ClassTree ct)
                                members.add("class " + ct.getSimpleName());
                        }
                        if (members.size() >= 2) out.put(name, members);
                        return super.visitClass(c, name);
                    }
                }.scan(cu, "");
            return out;
        }
    }

    public static void main(String[] args) throws Exception {
        for (int i = 0; i + 1 < args.length; i += 2) {
            Map<String, List<String>> a = orders(args[i]), b = orders(args[i + 1]);
            for (var e : a.entrySet()) {
                List<String> nb = b.get(e.getKey());
                if (nb == null) {
                    System.out.println("missing " + args[i + 1] + " " + e.getKey());
                    continue;
                }
                // Renamed members are not reordering's business: compare
                // only when the member sets agree.
                if (!new HashSet<>(nb).equals(new HashSet<>(e.getValue())))
                    System.out.println("changed " + e.getKey());
                else
                    System.out.println((nb.equals(e.getValue()) ? "same " : "reordered ")
                                       + args[i + 1] + " " + e.getKey());
            }
        }
    }
}
