/**
 * The diagnosis engine: plain Java, no framework, immutable and thread-safe. One call of
 * {@link io.jobmon.diagnosis.engine.DiagnosisEngine#analyzeBilingual} turns an evidence bundle into a root cause, quoted
 * evidence, a suggestion and an action, in English and Chinese ({@link io.jobmon.diagnosis.engine.BilingualDiagnosis},
 * rendered to the contract's {@link io.jobmon.diagnosis.engine.Diagnosis} by {@code in(Locale)}).
 *
 * <h2>Map: parse &rarr; match &rarr; metrics &rarr; rank &rarr; write</h2>
 * <ol>
 *   <li><b>Parse.</b> {@code BundleParser} (with {@link io.jobmon.diagnosis.engine.EngineJson}, the engine's one JSON
 *       helper) validates the JSON into an {@link io.jobmon.diagnosis.engine.EvidenceBundle}, naming the JSON path of
 *       the first bad value ({@link io.jobmon.diagnosis.engine.BundleValidationException}); {@code missingSources}
 *       names what the service could not reach. {@code JobContext} derives status, the reference time "now", and
 *       which pod ran on which node.</li>
 *   <li><b>Progress.</b> {@code ProgressParser} ({@code TqdmLine}) reads progress lines (tqdm, Trainer, DeepSpeed,
 *       Megatron, Keras, Paddle, MindSpore, and any printer of a step with a rate) into {@code ProgressPoint}s; {@code SpeedAnalysis} computes the real speed from successive
 *       points (immune to the resume trap) into a {@code SpeedReport}.</li>
 *   <li><b>Match.</b> {@link io.jobmon.diagnosis.engine.PatternCatalogue} ({@code CatalogueReader}, resource
 *       {@code diagnosis/patterns-v1.json}) holds the curated message forms; under it the
 *       {@link io.jobmon.diagnosis.engine.ReferenceCatalogues} ({@code diagnosis/catalogues/}: errno, exception classes,
 *       CUDA/NCCL/HCCL/Ascend codes, OOM and stall forms, each row with its source) become generic patterns
 *       ({@code CatalogueRules}; an errno or class lands by the context of its line, {@code TextContext});
 *       {@code PatternMatcher} scans log lines, events,
 *       pod and container states ({@code SourceTexts}) in one Aho-Corasick pass ({@code KeywordIndex}) and runs only the
 *       regexes whose keywords occurred, into a bounded {@code MatchSet} of {@code Finding}s and markers.</li>
 *   <li><b>Metrics.</b> {@code MetricAnalysis} ({@code UtilShape}) summarises dcgm series into a {@code MetricReport}:
 *       idle, spinning and saw-tooth utilisation, throttle reasons, Xid and ECC counters, hosts that went silent.</li>
 *   <li><b>Candidates.</b> {@code FindingJudge} sets aside findings that were resolved (the pod was scheduled later,
 *       training went on), came after the end, or concern a node none of the job's pods ran on;
 *       {@code FindingCandidates} turns the rest into one {@code Candidate} per category (pattern actions, node
 *       conditions that preceded a pod's failure, quotas the request can never fit via {@code QuotaLimits});
 *       {@code HardwareSignals}, {@code CatalogueSignals} (any dcgm-field row by its signal, Xid rows),
 *       {@code BehaviourRules} and {@code HangDetector} add what metrics and progress
 *       show.</li>
 *   <li><b>Rank.</b> {@code RootCauseRanker} picks the root cause by precedence group
 *       ({@link io.jobmon.diagnosis.engine.CategoryGroup}: infrastructure &gt; pre-start &gt; crash &gt; behaviour;
 *       pre-start first for a waiting job), causes over symptoms, earliest failure first. {@code Coverage} weighs what
 *       is missing: missing sources lower the confidence, and a weak finding, a bare exit code, or a behaviour
 *       inferred from incomplete evidence goes to {@code Conclusions}, which answers HEALTHY only for a job the
 *       evidence shows alive or ended well, UNKNOWN (naming what is missing) otherwise.</li>
 *   <li><b>Write.</b> {@code DiagnosisWriter} fills the catalogue's summary template in both languages (falling back
 *       to the job-level template when the pod or node it names is unknown), appends the detail, picks the suggestion
 *       that only refers to what is quoted, and caps the evidence
 *       ({@link io.jobmon.diagnosis.engine.BilingualEvidence}).</li>
 * </ol>
 */
package io.jobmon.diagnosis.engine;
