package io.jobmon.sim.stack;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the local stack answers, as {@code ./jobmon} passes it to the demo and replay programs.
 *
 * @param gateway the gateway's base URL, e.g. {@code http://localhost:8080}
 * @param issuer the realm's issuer URL (tokens come from its token endpoint)
 * @param client the public client of the password grant
 * @param simAdmin the sim's admin API, e.g. {@code http://127.0.0.1:16444}
 * @param simApi the sim's Kubernetes API, e.g. {@code http://127.0.0.1:16443}
 * @param cluster jobmon's name of the sim cluster
 * @param namespace the namespace job-service creates workloads in on the sim
 */
public record StackOptions(String gateway, String issuer, String client, String simAdmin, String simApi,
        String cluster, String namespace) {

    /** Options and what is left (positional arguments, other flags) of a command line. */
    public record Parsed(StackOptions options, Map<String, String> flags, List<String> rest) {
    }

    private static final List<String> OWN = List.of("gateway", "issuer", "client", "sim-admin", "sim-api", "cluster",
            "namespace");

    /**
     * {@code --gateway URL --issuer URL --client ID --sim-admin URL --sim-api URL --cluster NAME --namespace NS}, the
     * defaults being the standard local ports; other {@code --name value} pairs are returned as flags.
     */
    public static Parsed parse(String[] args) {
        Map<String, String> flags = new LinkedHashMap<>();
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].startsWith("--") && i + 1 < args.length) {
                flags.put(args[i].substring(2), args[++i]);
            } else {
                rest.add(args[i]);
            }
        }
        StackOptions o = new StackOptions(flags.getOrDefault("gateway", "http://localhost:8080"),
                flags.getOrDefault("issuer", "http://localhost:8180/realms/jobmon"), flags.getOrDefault("client", "jobmon-ui"),
                flags.getOrDefault("sim-admin", "http://127.0.0.1:16444"),
                flags.getOrDefault("sim-api", "http://127.0.0.1:16443"), flags.getOrDefault("cluster", "sim"),
                flags.getOrDefault("namespace", "jobmon-jobs"));
        OWN.forEach(flags::remove);
        return new Parsed(o, flags, rest);
    }
}
