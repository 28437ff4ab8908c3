/**
 * The job-access read model that every service guarding job data keeps locally (architecture.md, "Identity
 * and access"): job → tenant, owner, project, visibility, shares, from {@code jobmon.job.changes}, so that the
 * access rule is applied without calling job-service.
 *
 * <h2>Table</h2>
 * Each service has this table (job → tenant, owner, project, visibility, shares, version, deleted) in its own schema,
 * created by contracts' Flyway migration {@code db/shared/job-access/V0_1__job_access.sql}, which the service loads
 * ({@code quarkus.flyway.locations}, ADR 0014).
 * Like all of a service's SQL, the store names the table unqualified: the service's reactive connections have
 * {@code search_path} set to its schema ({@code quarkus.datasource.reactive.additional-properties.search_path}).
 *
 * <h2>Wiring in a service</h2>
 * <pre>
 * // 1. beans: contracts' AccessWiring produces JobAccessStore and JobGuard on the service's reactive pool
 *
 * // 2. the consumer is contracts' JobChangesConsumer, present unless the service disables the channel
 * //    (mp.messaging.incoming.job-changes.enabled=false, as job-service does): it checks the envelope and writes the
 * //    access row and the service's own facts in one transaction, under the suite's consumer rule
 * //    (InvalidRecordException → DLQ; any other failure retried until it succeeds). A service that keeps more of a
 * //    job than its access row has one bean implementing JobChanges.Facts (or produces one: JobChanges.Facts.of).
 * // application.properties: the channel comes from contracts' META-INF/microprofile-config.properties (ADR 0015);
 * // the service names its consumer group
 * //   mp.messaging.incoming.job-changes.group.id=log-service
 *
 * // 3. in a resource
 * return guard.require(CallerFactory.fromToken(jwt), jobId, Permission.READ_LOGS)
 *         .chain(access -&gt; logs.find(jobId, ...));
 * </pre>
 *
 * <h2>Semantics</h2>
 * <ul>
 * <li>A snapshot is applied only when its {@code version} is higher than the stored one: redelivered and
 * out-of-order snapshots change nothing, so the consumer is idempotent.</li>
 * <li>A snapshot with {@code deleted=true}, or a tombstone (null value on the compacted topic), marks the job
 * deleted: {@link io.jobmon.contracts.readmodel.JobAccessStore#find} then answers empty and the guard 404.</li>
 * <li>{@link io.jobmon.contracts.readmodel.JobGuard#require} fails with {@code ApiException.notFound} when the
 * job is unknown, deleted, or the caller may not see it (ids never leak), and with {@code forbidden} when the
 * caller sees it but lacks the permission.</li>
 * </ul>
 */
package io.jobmon.contracts.readmodel;
