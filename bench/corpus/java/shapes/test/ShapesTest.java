import static org.junit.Assert.*;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.Test;

public class ShapesTest {

    private static final double EPS = 1e-9;

    @Test
    public void circleMeasures() {
        Shapes.Shape c = new Shapes.Circle(0, 0, 2);
        assertEquals(4 * Math.PI, c.area(), EPS);
        assertEquals(4 * Math.PI, c.perimeter(), EPS);
        assertEquals("circle", c.name());
    }

    @Test
    public void rectMeasures() {
        Shapes.Shape r = new Shapes.Rect(1, 1, 3, 2);
        assertEquals(6.0, r.area(), EPS);
        assertEquals(10.0, r.perimeter(), EPS);
        assertEquals("rect", r.name());
        assertEquals("square", new Shapes.Rect(0, 0, 2, 2).name());
    }

    @Test
    public void circleContainment() {
        Shapes.Shape c = new Shapes.Circle(1, 1, 1);
        assertTrue(c.contains(1, 1));
        assertTrue(c.contains(2, 1));
        assertTrue(c.contains(1, 0));
        assertFalse(c.contains(2, 2));
        assertFalse(c.contains(-0.01, 1));
    }

    @Test
    public void rectContainmentIncludesEdges() {
        Shapes.Shape r = new Shapes.Rect(1, 2, 3, 4);
        assertTrue(r.contains(1, 2));
        assertTrue(r.contains(4, 6));
        assertTrue(r.contains(2, 3));
        assertFalse(r.contains(0.99, 3));
        assertFalse(r.contains(4.01, 3));
        assertFalse(r.contains(2, 1.99));
        assertFalse(r.contains(2, 6.01));
    }

    @Test(expected = IllegalArgumentException.class)
    public void zeroRadiusRejected() {
        new Shapes.Circle(0, 0, 0);
    }

    @Test
    public void badRectRejected() {
        try {
            new Shapes.Rect(0, 0, 1, 0);
            fail();
        } catch (IllegalArgumentException expected) {
            assertTrue(expected.getMessage().contains("height"));
        }
        try {
            new Shapes.Rect(0, 0, -1, 1);
            fail();
        } catch (IllegalArgumentException expected) {
            assertTrue(expected.getMessage().contains("width"));
        }
    }

    @Test
    public void listQueries() {
        List<Shapes.Shape> all = Arrays.asList(
                new Shapes.Rect(0, 0, 2, 2), new Shapes.Circle(0, 0, 1), new Shapes.Rect(5, 5, 1, 3));
        assertEquals(4 + Math.PI + 3, Shapes.totalArea(all), EPS);
        assertEquals(0.0, Shapes.totalArea(Collections.<Shapes.Shape>emptyList()), EPS);
        assertSame(all.get(0), Shapes.longestBoundary(all));
        assertNull(Shapes.longestBoundary(Collections.<Shapes.Shape>emptyList()));
        assertEquals(Arrays.asList("square", "circle"), Shapes.hits(all, 0.5, 0.5));
        assertEquals(Collections.singletonList("rect"), Shapes.hits(all, 6, 8));
        assertEquals(Collections.emptyList(), Shapes.hits(all, 3, 3));
    }

    @Test
    public void longestBoundaryPicksLaterWinner() {
        Shapes.Shape small = new Shapes.Rect(0, 0, 1, 1);
        Shapes.Shape big = new Shapes.Circle(0, 0, 5);
        Shapes.Shape mid = new Shapes.Rect(0, 0, 2, 3);
        assertSame(big, Shapes.longestBoundary(Arrays.asList(small, big, mid)));
        assertSame(big, Shapes.longestBoundary(Arrays.asList(small, mid, big)));
    }
}
