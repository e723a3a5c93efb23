import java.util.ArrayList;
import java.util.List;

/** Two implementations of one Shape interface, and queries over lists of shapes. */
public final class Shapes {

    private Shapes() {
    }

    /** A closed plane figure. */
    public interface Shape {
        double area();

        double perimeter();

        boolean contains(double x, double y);

        String name();
    }

    /** A circle given by its centre and radius. */
    public static final class Circle implements Shape {
        private final double cx;
        private final double cy;
        private final double r;

        public Circle(double cx, double cy, double r) {
            if (r <= 0) {
                throw new IllegalArgumentException("radius must be positive");
            }
            this.cx = cx;
            this.cy = cy;
            this.r = r;
        }

        public double area() {
            return Math.PI * r * r;
        }

        public double perimeter() {
            return 2 * Math.PI * r;
        }

        public boolean contains(double x, double y) {
            double dx = x - cx;
            double dy = y - cy;
            return dx * dx + dy * dy <= r * r;
        }

        public String name() {
            return "circle";
        }
    }

    /** An axis-aligned rectangle given by its lower-left corner and size. */
    public static final class Rect implements Shape {
        private final double x;
        private final double y;
        private final double w;
        private final double h;

        public Rect(double x, double y, double w, double h) {
            if (w <= 0 || h <= 0) {
                throw new IllegalArgumentException("width and height must be positive");
            }
            this.x = x;
            this.y = y;
            this.w = w;
            this.h = h;
        }

        public double area() {
            return w * h;
        }

        public double perimeter() {
            return 2 * (w + h);
        }

        public boolean contains(double px, double py) {
            return px >= x && px <= x + w && py >= y && py <= y + h;
        }

        public String name() {
            return w == h ? "square" : "rect";
        }
    }

    public static double totalArea(List<Shape> shapes) {
        double sum = 0;
        for (Shape s : shapes) {
            sum += s.area();
        }
        return sum;
    }

    /** The shape with the largest perimeter, or null for an empty list. */
    public static Shape longestBoundary(List<Shape> shapes) {
        Shape best = null;
        for (int i = 0; i < shapes.size(); i++) {
            if (best == null || shapes.get(i).perimeter() > best.perimeter()) {
                best = shapes.get(i);
            }
        }
        return best;
    }

    /** Names of the shapes containing the point, in list order. */
    public static List<String> hits(List<Shape> shapes, double x, double y) {
        List<String> names = new ArrayList<>();
        for (Shape s : shapes) {
            if (s.contains(x, y)) {
                names.add(s.name());
            }
        }
        return names;
    }
}
