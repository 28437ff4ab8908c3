package io.jobmon.jobs.job.service;

import io.jobmon.jobs.config.JobsConfig;
import io.jobmon.jobs.kube.ClusterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** Builds the pure rule objects from configuration (singletons: records and final classes cannot be proxied). */
@ApplicationScoped
public class RulesProducer {

    @Produces
    @Singleton
    TagRules tagRules(JobsConfig config) {
        return new TagRules(config.tags().maxCount(), config.tags().maxLength(), config.tags().pattern());
    }

    @Produces
    @Singleton
    SpecRules specRules(JobsConfig config, ClusterRegistry clusters, TagRules tags) {
        return new SpecRules(config.maxReplicas(), config.maxGpusPerReplica(), config.maxRetriesLimit(),
                config.defaultQueue(), clusters.infos(), tags, "project".equalsIgnoreCase(config.volumes().policy()));
    }
}
