package io.jobmon.logs.intake;

import io.jobmon.logs.config.LogsConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The secret patterns masked at ingest. Each rule: a regex whose named group {@code secret} (or the whole match) is
 * replaced, and lowercase hints, one of which a line must contain before the regex runs. Configuration
 * ({@code jobmon.logs.masking.rules.<name>.regex|hint}) replaces a default by name, adds new ones, or, with an empty
 * regex, switches a default off.
 */
public final class MaskingRules {

    /** One rule. */
    public record Rule(String name, Pattern pattern, List<String> hints) {
    }

    /** A value: what follows {@code key=}, {@code key: }, {@code "key": "}. */
    private static final String VALUE = "[\"']?\\s*[:=]\\s*[\"']?";
    private static final String SECRET = "(?<secret>[^\\s\"',;&}]+)";

    public static final Map<String, String[]> DEFAULTS = new LinkedHashMap<>();

    static {
        // name -> {regex, hints...}
        DEFAULTS.put("private-key", new String[] {
            "(?s)-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?<secret>.+?)(?=-----END [A-Z0-9 ]*PRIVATE KEY-----|$)", "private key"});
        DEFAULTS.put("authorization-header", new String[] {
            "(?i)\\b(?:proxy-)?authorization" + VALUE + "(?:(?:bearer|basic|digest|token|negotiate)\\s+)?" + SECRET,
            "authorization"});
        DEFAULTS.put("bearer-token", new String[] {
            "(?i)\\bbearer\\s+(?<secret>[A-Za-z0-9\\-._~+/]{8,}=*)", "bearer"});
        DEFAULTS.put("url-password", new String[] {
            "\\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\\s:/@]+:(?<secret>[^\\s@/]+)@", "://"});
        // The key names are what the regexes start with (not a run of name characters before them: the same matches,
        // without trying every start in a word), and the hints are what must follow them, so that "tokens/s=3500",
        // "num_input_tokens_seen", "KeyError" or "should be passed" run no regex at all.
        DEFAULTS.put("password-pair", new String[] {
            "(?i)(?:password|passwd|secret|credentials?|api[_-]?key|apikey|access[_-]?key|secret[_-]?key"
                    + "|private[_-]?key)" + VALUE + SECRET,
            "passw", "secret", "credential", "api_key", "api-key", "apikey", "access_key", "access-key", "accesskey",
            "private_key", "private-key", "privatekey"});
        // token=..., access_token: ..., HF_TOKEN=...; not tokens=4096, num_tokens: 2048, max_new_tokens, tokenizer=,
        // pad_token/eos_token/bos_token/unk_token (tokenizer settings), nor a plain number (token=42).
        DEFAULTS.put("token-pair", new String[] {
            "(?i)token(?<!(?:pad|eos|bos|unk|sep|cls)_?token|mask_token)" + VALUE + "(?!\\d+\\b)" + SECRET,
            "token\"", "token'", "token:", "token=", "token ", "token\t", "token\n", "token\u000b", "token\f", "token\r"});
        DEFAULTS.put("aws-access-key", new String[] {"\\b(?:AKIA|ASIA)[0-9A-Z]{16}\\b", "akia", "asia"});
        DEFAULTS.put("aliyun-access-key", new String[] {"\\bLTAI[0-9A-Za-z]{12,28}\\b", "ltai"});
        DEFAULTS.put("jwt", new String[] {"\\beyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}", "eyj"});
        DEFAULTS.put("huggingface-token", new String[] {"\\bhf_[A-Za-z0-9]{30,}\\b", "hf_"});
        DEFAULTS.put("github-token", new String[] {"\\bgh[pousr]_[A-Za-z0-9]{36,}\\b", "ghp_", "gho_", "ghu_", "ghs_", "ghr_"});
    }

    private MaskingRules() {
    }

    /** The defaults with the configured rules applied over them. */
    public static List<Rule> of(Map<String, LogsConfig.Masking.Rule> configured) {
        Map<String, Rule> rules = new LinkedHashMap<>();
        DEFAULTS.forEach((name, def) -> rules.put(name, new Rule(name, Pattern.compile(def[0]),
                List.of(def).subList(1, def.length))));
        configured.forEach((name, rule) -> {
            if (rule.regex() == null || rule.regex().isBlank()) {
                rules.remove(name);
            } else {
                rules.put(name, new Rule(name, Pattern.compile(rule.regex()), rule.hint().orElse(List.of())));
            }
        });
        return new ArrayList<>(rules.values());
    }

    public static List<Rule> defaults() {
        return of(Map.of());
    }
}
