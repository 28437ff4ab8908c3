package io.jobmon.chart;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;

import java.util.List;
import java.util.Map;

/**
 * Decides, as a Kubernetes network plugin does, whether the rendered NetworkPolicies let one endpoint open a TCP
 * connection to another: the destination pod's policies must admit it (ingress) and the source pod's policies
 * must let it out (egress). Selectors with matchExpressions are refused rather than guessed.
 */
final class NetworkPolicyModel {

    /** A pod (labels, namespace) or an address outside the cluster's pods (ip). */
    record Endpoint(String namespace, Map<String, String> labels, String ip) {
        static Endpoint pod(String namespace, Map<String, String> labels) {
            return new Endpoint(namespace, labels, "172.31.0.1");
        }

        static Endpoint host(String ip) {
            return new Endpoint(null, Map.of(), ip);
        }

        Map<String, String> namespaceLabels() {
            return namespace == null ? null : Map.of("kubernetes.io/metadata.name", namespace);
        }
    }

    private final List<NetworkPolicy> policies;

    NetworkPolicyModel(List<NetworkPolicy> policies) {
        this.policies = policies;
    }

    boolean allows(Endpoint from, Endpoint to, int port) {
        return admits(to, from, port) && letsOut(from, to, port);
    }

    private boolean admits(Endpoint to, Endpoint from, int port) {
        List<NetworkPolicy> applying = applying(to, "Ingress");
        if (to.namespace() == null || applying.isEmpty()) {
            return true;
        }
        return applying.stream().flatMap(p -> p.getSpec().getIngress().stream())
                .anyMatch(rule -> ports(rule.getPorts(), port) && peers(rule.getFrom(), from, to.namespace()));
    }

    private boolean letsOut(Endpoint from, Endpoint to, int port) {
        List<NetworkPolicy> applying = applying(from, "Egress");
        if (from.namespace() == null || applying.isEmpty()) {
            return true;
        }
        return applying.stream().flatMap(p -> p.getSpec().getEgress().stream())
                .anyMatch(rule -> ports(rule.getPorts(), port) && peers(rule.getTo(), to, from.namespace()));
    }

    private List<NetworkPolicy> applying(Endpoint pod, String type) {
        return policies.stream()
                .filter(p -> p.getMetadata().getNamespace() == null || p.getMetadata().getNamespace().equals(pod.namespace()))
                .filter(p -> Rendered.NAMESPACE.equals(pod.namespace()))
                .filter(p -> p.getSpec().getPolicyTypes().contains(type))
                .filter(p -> selects(p.getSpec().getPodSelector(), pod.labels()))
                .toList();
    }

    private static boolean ports(List<NetworkPolicyPort> ports, int port) {
        return ports == null || ports.isEmpty() || ports.stream().anyMatch(p ->
                (p.getProtocol() == null || p.getProtocol().equals("TCP")) && p.getPort() != null
                        && p.getPort().getIntVal() != null && p.getPort().getIntVal() == port);
    }

    /** An absent or empty peer list admits everyone. */
    private static boolean peers(List<NetworkPolicyPeer> peers, Endpoint other, String policyNamespace) {
        return peers == null || peers.isEmpty() || peers.stream().anyMatch(p -> peer(p, other, policyNamespace));
    }

    private static boolean peer(NetworkPolicyPeer p, Endpoint other, String policyNamespace) {
        if (p.getIpBlock() != null) {
            return other.namespace() == null && Cidr.contains(p.getIpBlock().getCidr(), other.ip())
                    && (p.getIpBlock().getExcept() == null
                    || p.getIpBlock().getExcept().stream().noneMatch(e -> Cidr.contains(e, other.ip())));
        }
        if (other.namespace() == null) {
            return false;
        }
        boolean namespaceOk = p.getNamespaceSelector() == null ? other.namespace().equals(policyNamespace)
                : selects(p.getNamespaceSelector(), other.namespaceLabels());
        boolean podOk = p.getPodSelector() == null || selects(p.getPodSelector(), other.labels());
        return namespaceOk && podOk;
    }

    private static boolean selects(LabelSelector selector, Map<String, String> labels) {
        if (selector.getMatchExpressions() != null && !selector.getMatchExpressions().isEmpty()) {
            throw new IllegalStateException("matchExpressions are not modelled: " + selector);
        }
        Map<String, String> wanted = selector.getMatchLabels() == null ? Map.of() : selector.getMatchLabels();
        return wanted.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
    }

    /** IPv4 CIDR membership. */
    static final class Cidr {
        static boolean contains(String cidr, String ip) {
            String[] parts = cidr.split("/");
            int bits = Integer.parseInt(parts[1]);
            long mask = bits == 0 ? 0 : 0xFFFFFFFFL << (32 - bits) & 0xFFFFFFFFL;
            return (toLong(parts[0]) & mask) == (toLong(ip) & mask);
        }

        private static long toLong(String ip) {
            long v = 0;
            for (String octet : ip.split("\\.")) {
                v = v << 8 | Integer.parseInt(octet);
            }
            return v;
        }
    }
}
