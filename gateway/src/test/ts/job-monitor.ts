// What a frontend builds from the generated types alone (openapi-typescript output in ./schema.d.ts): the
// job-monitor table (作业监控), the submit form's lookups, a submission, the share dialog and a problem.
import type { components, paths } from "./schema";

type Schemas = components["schemas"];
type JobRow = Schemas["JobRow"];
type ListQuery = NonNullable<paths["/api/v1/jobs"]["get"]["parameters"]["query"]>;
type ListPage = paths["/api/v1/jobs"]["get"]["responses"][200]["content"]["application/json"];
type Created = paths["/api/v1/jobs"]["post"]["responses"][201]["content"]["application/json"];
type Spec = paths["/api/v1/jobs"]["post"]["requestBody"]["content"]["application/json"];
type NotFound = paths["/api/v1/jobs/{id}"]["get"]["responses"][404]["content"]["application/problem+json"];
type Pods = paths["/api/v1/jobs/{id}/pods"]["get"]["responses"][200]["content"]["application/json"];
type Timeline = paths["/api/v1/jobs/{id}/timeline"]["get"]["responses"][200]["content"]["application/json"];
type TimelineQuery = NonNullable<paths["/api/v1/jobs/{id}/timeline"]["get"]["parameters"]["query"]>;
type Detail = paths["/api/v1/jobs/{id}"]["get"]["responses"][200]["content"]["application/json"];
type Statuses = paths["/api/v1/jobs/statuses"]["get"]["responses"][200]["content"]["application/json"];
type Stats = paths["/api/v1/jobs/stats"]["get"]["responses"][200]["content"]["application/json"];
type Clusters = paths["/api/v1/clusters"]["get"]["responses"][200]["content"]["application/json"];
type Users = paths["/api/v1/users"]["get"]["responses"][200]["content"]["application/json"];
type Events = paths["/api/v1/jobs/{id}/events"]["get"]["responses"][200]["content"]["application/json"];
type Me = paths["/api/v1/me"]["get"]["responses"][200]["content"]["application/json"];

export const viewAll: ListQuery = { scope: "project", status: ["RUNNING", "QUEUED"], sort: "queueSeconds:desc", limit: 50 };
export const recentlyChanged: ListQuery = { sort: "updatedAt:desc" };
export const urgentFirst: ListQuery = { sort: "priority:desc" };

/** One row of the table: 作业 ID, 状态, 排队时长, 运行时长, GPU 占用, 失败原因, 提交时间, 更新时间. */
export function cells(row: JobRow): string[] {
    const why = row.reasonCode ? `${row.reason}: ${row.reasonExplanation ?? ""}` : (row.message ?? "");
    return [row.id, row.subStateText ?? row.statusText, row.queueTime, row.runTime, row.gpu,
        row.failureReasonText ?? row.failureReason ?? why, row.submittedAt, row.updatedAt];
}

export function table(page: ListPage): string[][] {
    return page.items.map(cells);
}

export const spec: Spec = { name: "bert-large", project: "project-nlp", cluster: "gpu-a", image: "reg/nlp/bert:1",
    queue: "gpu-prod", resources: { gpuType: "A800", gpusPerReplica: 8 }, replicas: 2 };

export function location(job: Created): string {
    return `/api/v1/jobs/${job.id}`;
}

export function restarts(pods: Pods): number {
    return pods.items.flatMap(p => p.containers).reduce((n, c) => n + c.restartCount, 0);
}

export function lastEntry(t: Timeline): string | undefined {
    return t.items.at(-1)?.statusText;
}

export const firstTen: TimelineQuery = { limit: 10 };

/** A timeline line: the cluster's times may be cut to the second, so they are marked. */
export function timelineLine(t: Timeline): string[] {
    return t.items.map(e => `${e.time}${e.timeSource === "cluster" ? " (cluster)" : ""} ${e.statusText}`);
}

/** The detail's status box: 状态, 含义, 下一步, and what it is stuck on. */
export function statusBox(d: Detail): string[] {
    return [d.statusText, d.statusMeaning, d.statusNextStep, d.subState ?? "", d.subStateText ?? "",
        d.failureReasonText ?? ""];
}

export function legend(s: Statuses): string[] {
    return s.items.map(x => `${x.statusText}: ${x.meaning} ${x.nextStep}${x.terminal ? " ✓" : ""}`);
}

export function topReasons(s: Stats): string[] {
    return (s.topFailureReasons ?? []).map(r => `${r.text ?? r.reason} (${r.code ?? "?"}) ×${r.count}`);
}

export function conditionNames(pods: Pods): string[] {
    return pods.items.flatMap(p => p.conditions.map(c => c.typeText ?? c.type));
}

export function queueNames(c: Clusters): string[] {
    return c.items.flatMap(cl => cl.queues.filter(q => q.mayUse).map(q => `${cl.name}/${q.name}`));
}

export function suggestions(u: Users): string[] {
    return u.items.map(x => x.name);
}

export function warnings(e: Events): number {
    return e.items.filter(x => x.type === "Warning").length;
}

export function explain(p: NotFound): string {
    return `${p.title}: ${p.detail ?? ""} (${p.type}, ${p.errors?.map(e => e.field).join(", ") ?? ""})`;
}

export function isAdmin(me: Me): boolean {
    return me.admin;
}

// The detail page's other tabs: logs (log-service), GPU charts (metrics-service), diagnoses (diagnosis-service).
type LogPage = paths["/api/v1/jobs/{id}/logs"]["get"]["responses"][200]["content"]["application/json"];
type LogQuery = NonNullable<paths["/api/v1/jobs/{id}/logs"]["get"]["parameters"]["query"]>;
type Chart = paths["/api/v1/jobs/{id}/metrics"]["get"]["responses"][200]["content"]["application/json"];
type Diagnoses = paths["/api/v1/jobs/{id}/diagnoses"]["get"]["responses"][200]["content"]["application/json"];
type Gone = paths["/api/v1/jobs/{id}/logs"]["get"]["responses"][410]["content"]["application/problem+json"];

export const lastLines: LogQuery = { tail: "100", type: "user" };

export function logText(page: LogPage): string {
    return page.items.map(l => `${l.time} [${l.pod ?? l.node ?? ""}] ${l.line}`).join("\n");
}

export function seriesCount(chart: Chart): number {
    return Object.keys(chart).length;
}

export function diagnosisStates(d: Diagnoses): string[] {
    return d.items.map(x => `${x.status} ${x.trigger}`);
}

export function expired(p: Gone): string {
    return p.detail ?? p.title;
}

// Lists are {items} everywhere (the metric catalogue and the scrape targets too); a diagnosis shows the caller's
// verdict and keeps the metric series it read (issue #29).
type Catalogue = paths["/api/v1/metrics/catalogue"]["get"]["responses"][200]["content"]["application/json"];
type Targets = paths["/api/v1/metrics/targets"]["get"]["responses"][200]["content"]["application/json"];
type Diagnosis = paths["/api/v1/diagnoses/{id}"]["get"]["responses"][200]["content"]["application/json"];
type MyVerdict = paths["/api/v1/diagnoses/{id}/feedback"]["get"]["responses"][200]["content"]["application/json"];
type Snapshot = paths["/api/v1/diagnoses/{id}/snapshot"]["get"]["responses"][200]["content"]["application/json"];

export function metricUnits(c: Catalogue): string[] {
    return c.items.map(m => `${m.name} (${m.unit ?? ""})`);
}

export function targetsDown(t: Targets): number {
    return t.items.filter(x => x.up === false).length;
}

export function verdictShown(d: Diagnosis, mine: MyVerdict | undefined): string {
    return d.myFeedback?.verdict ?? mine?.verdict ?? "not judged";
}

export function snapshotLines(s: Snapshot): string[] {
    return s.items.map(x => `${x.metric} ${x.labels["gpu"] ?? ""}: ${x.points.length}/${s.maxPoints}`);
}
