package io.jobmon.jobs.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Seeds the benchmark data with SQL ({@code generate_series}), straight into schema {@code jobs}: per tenant, jobs of
 * 1,000 users in 50 projects with 20 tags, a realistic status mix, 10 % shared and 30 % PROJECT-visible; plus, in the
 * big tenant, a 2,000-pod and a 2-pod job.
 */
final class BenchSeed {

    private BenchSeed() {
    }

    static void seed(String jdbcUrl, String user, String password, String tenant, int jobs) throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbcUrl, user, password); Statement s = c.createStatement()) {
            s.execute("SET search_path = jobs");
            s.execute("DELETE FROM job WHERE tenant = '" + tenant + "'");
            s.execute("SELECT setseed(0.42)");
            int chunk = 100_000;
            for (int from = 1; from <= jobs; from += chunk) {
                int to = Math.min(jobs, from + chunk - 1);
                s.execute(insertJobs(tenant, from, to, jobs));
                System.out.printf("  %s: %,d / %,d jobs%n", tenant, to, jobs);
            }
            // The steady state of a live table: autovacuum has merged GIN pending lists and set visibility maps.
            s.execute("VACUUM ANALYZE job");
        }
    }

    static void seedPods(String jdbcUrl, String user, String password, String jobId, int pods) throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbcUrl, user, password); Statement s = c.createStatement()) {
            s.execute("SET search_path = jobs");
            s.execute("INSERT INTO job_pod (job_id, name, namespace, node, phase, reason, containers, updated_at) "
                    + "SELECT '" + jobId + "', '" + jobId + "-' || g, 'train', 'gpu-node-' || (g % 250), "
                    + "CASE WHEN g % 100 = 0 THEN 'Pending' ELSE 'Running' END, NULL, "
                    + "'[{\"name\":\"main\",\"state\":\"running\",\"restartCount\":0}]'::jsonb, now() "
                    + "FROM generate_series(0, " + (pods - 1) + ") g");
            s.execute("VACUUM ANALYZE job_pod");
        }
    }

    private static String insertJobs(String tenant, int from, int to, int total) {
        return """
            INSERT INTO job (id, tenant, owner, project, name, cluster, region, namespace, queue, priority, status,
                reason, failure_reason, gpu_type, gpus_per_replica, replicas, visibility, tags, shares, spec,
                supports_restart, auto_fault_handling, max_retries, root_id, submitted_at, started_at, finished_at,
                last_sequence, version)
            SELECT id, '%1$s', owner, project, name, 'gpu-a', 'cn-north', 'train', 'gpu-prod', 'NORMAL', status,
                CASE WHEN status IN ('FAILED', 'ABNORMAL') THEN 'OOMKilled' ELSE NULL END,
                CASE WHEN status IN ('FAILED', 'ABNORMAL') THEN (ARRAY['OOMKilled','GPU_OOM','USER_CODE_ERROR',
                    'NCCL_COMMUNICATION_ERROR'])[1 + (g %% 4)] ELSE NULL END,
                'A800', 1 + (g %% 8), 1 + (g %% 4),
                CASE WHEN r3 < 0.3 THEN 'PROJECT' ELSE 'PRIVATE' END,
                ARRAY['t' || lpad(floor(r4 * 20)::int::text, 2, '0'), 't' || lpad(floor(r5 * 20)::int::text, 2, '0')],
                CASE WHEN r6 < 0.1 THEN ARRAY['u' || lpad(floor(r7 * 1000)::int::text, 4, '0')] ELSE '{}' END,
                jsonb_build_object('name', name, 'project', project, 'cluster', 'gpu-a', 'region', 'cn-north',
                    'queue', 'gpu-prod', 'priority', 'NORMAL', 'image', 'registry.local/team/train:1.0',
                    'command', jsonb_build_array('python', 'train.py'), 'replicas', 1 + (g %% 4),
                    'resources', jsonb_build_object('gpuType', 'A800', 'gpusPerReplica', 1 + (g %% 8))),
                false, false, 0, id, submitted,
                CASE WHEN status IN ('PENDING', 'QUEUED') THEN NULL ELSE submitted + interval '1 second' * (r8 * 3600) END,
                CASE WHEN status IN ('SUCCEEDED', 'FAILED', 'STOPPED')
                     THEN submitted + interval '1 second' * (r8 * 3600 + 60 + r9 * 36000) ELSE NULL END,
                1, 1
            FROM (
                SELECT g, '%1$s-' || g AS id,
                    'u' || lpad(floor(r1 * 1000)::int::text, 4, '0') AS owner,
                    'p' || lpad((floor(r1 * 1000)::int %% 50)::text, 2, '0') AS project,
                    'exp-' || (ARRAY['bert','gpt','llama','resnet','vit','t5','whisper','sdxl','clip','mamba'])
                        [1 + floor(r2 * 10)::int] || '-' || g AS name,
                    CASE WHEN rs < 0.55 THEN 'SUCCEEDED' WHEN rs < 0.70 THEN 'FAILED' WHEN rs < 0.80 THEN 'STOPPED'
                         WHEN rs < 0.90 THEN 'RUNNING' WHEN rs < 0.93 THEN 'PENDING' WHEN rs < 0.97 THEN 'QUEUED'
                         WHEN rs < 0.98 THEN 'PARTIALLY_PENDING' WHEN rs < 0.99 THEN 'ABNORMAL' ELSE 'STOPPING' END
                        AS status,
                    now() - interval '1 second' * (%4$d - g) * 15 AS submitted,
                    r3, r4, r5, r6, r7, r8, r9
                FROM (SELECT g, random() AS r1, random() AS r2, random() AS r3, random() AS r4, random() AS r5,
                        random() AS r6, random() AS r7, random() AS r8, random() AS r9, random() AS rs
                      FROM generate_series(%2$d, %3$d) g) x
            ) y
            """.formatted(tenant, from, to, total);
    }
}
