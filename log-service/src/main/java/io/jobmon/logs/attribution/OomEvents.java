package io.jobmon.logs.attribution;

import io.jobmon.contracts.attribution.NodeLines;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The kernel OOM-killer events of a node, found in its kernel lines: one event is the block the kernel prints under
 * its oom lock ({@code <comm> invoked oom-killer: …}, the stack, {@code memory: usage …}, the task table, the memory
 * cgroup line, {@code Memory cgroup out of memory: Killed process <pid> (<comm>) …}) and {@code oom_reaper: reaped
 * process <pid> …} a little later. The event belongs to the pod its cgroup line names ({@link NodeLines#cgroupOwner}); its other
 * lines go with it: those in its window on the node, and those naming its pid.
 */
public final class OomEvents {

    /** How long after {@code invoked oom-killer} an event's block lasts at most (it is printed at once). */
    static final long WINDOW = 5_000_000_000L;
    /** How long after its start a line naming the event's pid still belongs to it (the reaper runs later). */
    static final long PID_WINDOW = 60_000_000_000L;

    private static final Pattern PID = Pattern.compile("[,\\s]pid=(\\d+)");
    static final Pattern KILL = Pattern.compile("(?:Killed process|Kill process|reaped process) (\\d+) \\(");

    /** One event: {@code [start, end]} on {@code node}; its owner from the cgroup line (null fields: none seen). */
    public record Event(String node, long start, long end, int pid, NodeLines.Owner owner) {
    }

    private final Map<String, List<Event>> byNode = new HashMap<>();

    public static final OomEvents NONE = new OomEvents();

    /**
     * Keywords of the lines that start or own an event, what {@link #of} needs to see (a keyword search finds them,
     * the chunks' filters skipping the rest): {@code oom} ({@code invoked oom-killer}, the {@code oom-kill:} summary,
     * {@code oom_reaper}), and the cgroup v1 era's {@code Task in … killed as a result of limit of …}.
     */
    public static final List<String> KEYWORDS = List.of("oom", "killed as a result of limit");

    /** A line to read events from, in time order per node. */
    public record Line(String node, long time, String text) {
    }

    /** The events the lines show (lines in time order per node; other lines are ignored). */
    public static OomEvents of(List<Line> lines) {
        OomEvents out = new OomEvents();
        Map<String, List<long[]>> starts = new HashMap<>();
        Map<String, List<Object[]>> owners = new HashMap<>();
        for (Line l : lines) {
            if (l.text().contains(" invoked oom-killer:")) {
                starts.computeIfAbsent(l.node(), k -> new ArrayList<>()).add(new long[] {l.time()});
            } else if (NodeLines.namesCgroup(l.text())) {
                Matcher pid = PID.matcher(l.text());
                int p = l.text().startsWith("oom-kill:") && pid.find() ? Integer.parseInt(pid.group(1)) : -1;
                owners.computeIfAbsent(l.node(), k -> new ArrayList<>()).add(new Object[] {l.time(), NodeLines.cgroupOwner(l.text()), p,
                        rank(l.text())});
            }
        }
        Map<String, List<long[]>> all = new HashMap<>(starts);
        owners.forEach((node, list) -> list.forEach(o -> {
            long t = (long) o[0];
            List<long[]> s = all.computeIfAbsent(node, k -> new ArrayList<>());
            if (s.stream().noneMatch(x -> x[0] <= t && t <= x[0] + WINDOW)) {
                s.add(new long[] {t}); // a cgroup line without its start line (cut off before the window): its own event
            }
        }));
        all.forEach((node, s) -> {
            s.sort((a, b) -> Long.compare(a[0], b[0]));
            List<Event> events = new ArrayList<>();
            for (int i = 0; i < s.size(); i++) {
                long start = s.get(i)[0];
                long end = Math.min(start + WINDOW, i + 1 < s.size() ? s.get(i + 1)[0] - 1 : Long.MAX_VALUE);
                NodeLines.Owner owner = null;
                int ownerRank = Integer.MAX_VALUE;
                int pid = -1;
                for (Object[] o : owners.getOrDefault(node, List.of())) {
                    long t = (long) o[0];
                    if (t < start || t > end) {
                        continue;
                    }
                    if ((int) o[3] < ownerRank) {
                        owner = (NodeLines.Owner) o[1];
                        ownerRank = (int) o[3];
                    }
                    if ((int) o[2] >= 0) {
                        pid = (int) o[2];
                    }
                }
                events.add(new Event(node, start, end, pid, owner));
            }
            out.byNode.put(node, events);
        });
        return out;
    }

    /** Which cgroup line names the owner best: the summary's task_memcg, then Task in, then stats, then oom_memcg. */
    private static int rank(String text) {
        return text.contains("task_memcg=") ? 0 : text.contains("Task in /") ? 1 : text.contains("Memory cgroup stats for") ? 2 : 3;
    }

    /** The event whose block holds a line of the node at this time, or null. */
    Event at(String node, long time) {
        for (Event e : byNode.getOrDefault(node, List.of())) {
            if (e.start() <= time && time <= e.end()) {
                return e;
            }
        }
        return null;
    }

    /** The event that killed {@code pid} on the node shortly before {@code time}, or null. */
    Event byPid(String node, int pid, long time) {
        Event best = null;
        for (Event e : byNode.getOrDefault(node, List.of())) {
            if (e.pid() == pid && e.start() <= time && time <= e.start() + PID_WINDOW) {
                best = e;
            }
        }
        return best;
    }

    public List<Event> events(String node) {
        return byNode.getOrDefault(node, List.of());
    }
}
