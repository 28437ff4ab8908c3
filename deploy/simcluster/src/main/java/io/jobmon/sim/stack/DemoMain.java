package io.jobmon.sim.stack;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code ./jobmon demo [--wave-seconds 45]}: submits {@link DemoPlan}'s jobs through the gateway with real tokens, in
 * waves, stops the hanging one once it runs, shares one with carol, then prints each job's state and what to call to
 * look at them. Exit 0 when every job was accepted, 1 otherwise.
 */
public final class DemoMain {

    private DemoMain() {
    }

    /** A submitted job. */
    private record Submitted(DemoPlan.DemoJob plan, String id) {
    }

    public static void main(String[] args) throws Exception {
        Locale.setDefault(Locale.ROOT);
        StackOptions.Parsed p = StackOptions.parse(args);
        StackClient stack = new StackClient(p.options());
        Duration wave = Duration.ofSeconds(Long.parseLong(p.flags().getOrDefault("wave-seconds", "45")));
        List<Submitted> submitted = new ArrayList<>();
        int refused = 0;
        int current = 0;
        for (DemoPlan.DemoJob j : DemoPlan.jobs()) {
            if (j.wave() != current) {
                current = j.wave();
                System.out.println("  (next wave in " + wave.toSeconds() + " s)");
                act(stack, submitted);
                Thread.sleep(wave.toMillis());
            }
            StackClient.Answer a = stack.post(j.user(), "/api/v1/jobs", j.spec(p.options().cluster()));
            if (a.ok()) {
                submitted.add(new Submitted(j, a.json().path("id").asText()));
                System.out.printf("  %-6s %-20s %-16s %s%n", j.user(), j.name(), j.scenario() == null ? "healthy" : j.scenario(),
                        a.json().path("id").asText());
            } else {
                refused++;
                System.out.println("  " + j.user() + " " + j.name() + ": refused, HTTP " + a.status() + " " + a.body());
            }
        }
        act(stack, submitted);
        awaitStops(stack, submitted, Duration.ofMinutes(3));
        print(stack, submitted, p.options());
        System.exit(refused == 0 ? 0 : 1);
    }

    /** Shares what is to be shared (once), stops what is to be stopped once it runs. */
    private static void act(StackClient stack, List<Submitted> jobs) {
        for (Submitted s : jobs) {
            String path = "/api/v1/jobs/" + s.id();
            if (s.plan().then() == DemoPlan.Then.SHARE_WITH_CAROL) {
                JsonNode job = stack.get(s.plan().user(), path).json();
                if (job.path("shares").isEmpty()) {
                    stack.put(s.plan().user(), path + "/shares", Map.of("users", List.of("carol")))
                            .require("sharing " + s.id() + " with carol");
                    System.out.println("  " + s.plan().user() + " shared " + s.plan().name() + " with carol");
                }
            } else if (s.plan().then() == DemoPlan.Then.STOP_WHEN_RUNNING) {
                String status = stack.get(s.plan().user(), path).json().path("status").asText();
                if ("RUNNING".equals(status)) {
                    stack.post(s.plan().user(), path + "/stop", Map.of()).require("stopping " + s.id());
                    System.out.println("  " + s.plan().user() + " stopped " + s.plan().name() + " (it hung)");
                }
            }
        }
    }

    /** Until the job to stop has been stopped (it must run first), at most {@code max}. */
    private static void awaitStops(StackClient stack, List<Submitted> jobs, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        for (Submitted s : jobs) {
            if (s.plan().then() != DemoPlan.Then.STOP_WHEN_RUNNING) {
                continue;
            }
            String status = "";
            while (System.nanoTime() < deadline) {
                status = stack.get(s.plan().user(), "/api/v1/jobs/" + s.id()).json().path("status").asText();
                if (List.of("STOPPING", "STOPPED", "SUCCEEDED", "FAILED").contains(status)) {
                    break;
                }
                act(stack, List.of(s));
                Thread.sleep(3000);
            }
        }
    }

    private static void print(StackClient stack, List<Submitted> jobs, StackOptions o) {
        Map<String, Integer> byStatus = new LinkedHashMap<>();
        System.out.printf("%n%-20s %-6s %-16s %-12s %s%n", "job", "user", "scenario", "status", "reason");
        for (Submitted s : jobs) {
            JsonNode job = stack.get(s.plan().user(), "/api/v1/jobs/" + s.id()).json();
            String status = job.path("status").asText("?");
            byStatus.merge(status, 1, Integer::sum);
            System.out.printf("%-20s %-6s %-16s %-12s %s%n", s.plan().name(), s.plan().user(),
                    s.plan().scenario() == null ? "healthy" : s.plan().scenario(), status,
                    job.path("failureReason").asText(job.path("reason").asText("")));
        }
        System.out.println("\n" + jobs.size() + " jobs now: " + byStatus
                + ". They move on by themselves: failures within minutes, healthy runs succeed after the sim's"
                + " run time (JOBMON_SIM_RUN_TIME), queued ones start as GPUs free up.");
        String any = jobs.isEmpty() ? "ID" : jobs.get(0).id();
        System.out.println("""

                Look at them (as alice; bob and carol see their own, carol also the shared one):
                  TOKEN=$(./jobmon token alice)
                  curl -s -H "Authorization: Bearer $TOKEN" '%1$s/api/v1/jobs?scope=project'
                  curl -s -H "Authorization: Bearer $TOKEN" '%1$s/api/v1/jobs/stats?scope=project'
                  curl -s -H "Authorization: Bearer $TOKEN" %1$s/api/v1/jobs/%2$s            # status, reason, pods
                  curl -s -H "Authorization: Bearer $TOKEN" %1$s/api/v1/jobs/%2$s/timeline
                  curl -s -H "Authorization: Bearer $TOKEN" %1$s/api/v1/jobs/%2$s/events
                  curl -s -H "Authorization: Bearer $TOKEN" '%1$s/api/v1/jobs/%2$s/logs?limit=100'
                  curl -s -H "Authorization: Bearer $TOKEN" '%1$s/api/v1/jobs/%2$s/metrics?groupBy=gpu'
                  curl -s -H "Authorization: Bearer $TOKEN" %1$s/api/v1/jobs/ID/diagnoses    # failed jobs: automatic
                  TOKEN=$(./jobmon token admin); curl -s -H "Authorization: Bearer $TOKEN" %1$s/api/v1/metrics/overview
                """.formatted(o.gateway(), any));
    }
}
