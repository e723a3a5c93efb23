package corpus.lru;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A bounded least-recently-used cache over a hand-made doubly linked list. */
public class LruCache<K, V> {

    /** A list node; head side is most recently used. */
    static final class Node<K, V> {
        final K key;
        V value;
        Node<K, V> prev;
        Node<K, V> next;

        Node(K key, V value) {
            this.key = key;
            this.value = value;
        }
    }

    private final int capacity;
    private final Map<K, Node<K, V>> index = new HashMap<>();
    private Node<K, V> head;
    private Node<K, V> tail;
    private int evictions;

    public LruCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1");
        }
        this.capacity = capacity;
    }

    public int size() {
        return index.size();
    }

    public int evictions() {
        return evictions;
    }

    /** Returns the value and marks it most recently used, or null when absent. */
    public V get(K key) {
        Node<K, V> node = index.get(key);
        if (node == null) {
            return null;
        }
        unlink(node);
        pushFront(node);
        return node.value;
    }

    /** Inserts or replaces; evicts the least recently used entry when full. */
    public void put(K key, V value) {
        Node<K, V> node = index.get(key);
        if (node != null) {
            node.value = value;
            unlink(node);
            pushFront(node);
            return;
        }
        if (index.size() >= capacity) {
            Node<K, V> victim = tail;
            unlink(victim);
            index.remove(victim.key);
            evictions++;
        }
        node = new Node<>(key, value);
        pushFront(node);
        index.put(key, node);
    }

    public boolean remove(K key) {
        Node<K, V> node = index.remove(key);
        if (node == null) {
            return false;
        }
        unlink(node);
        return true;
    }

    /** Keys from most to least recently used. */
    public List<K> keys() {
        List<K> out = new ArrayList<>();
        for (Node<K, V> n = head; n != null; n = n.next) {
            out.add(n.key);
        }
        return out;
    }

    private void unlink(Node<K, V> node) {
        if (node.prev != null) {
            node.prev.next = node.next;
        } else {
            head = node.next;
        }
        if (node.next != null) {
            node.next.prev = node.prev;
        } else {
            tail = node.prev;
        }
        node.prev = null;
        node.next = null;
    }

    private void pushFront(Node<K, V> node) {
        node.next = head;
        if (head != null) {
            head.prev = node;
        }
        head = node;
        if (tail == null) {
            tail = node;
        }
    }
}
