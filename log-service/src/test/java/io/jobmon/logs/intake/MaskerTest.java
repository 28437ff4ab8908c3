package io.jobmon.logs.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.logs.config.LogsConfig;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Each default masking rule, and ordinary training output left alone. */
class MaskerTest {

    private final Masker masker = new Masker(MaskingRules.defaults(), "****");

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "bearer-token         | sending Bearer abcDEF123.456-xyz_ok/+= done | sending Bearer **** done",
        "authorization-header | Authorization: Basic dXNlcjpwYXNzd29yZA== | Authorization: Basic ****",
        "authorization header json | {\"authorization\": \"token ghx123456\"} | {\"authorization\": \"token ****\"}",
        "url-password         | cloning https://oauth2:glpat-x9Y8z7@gitlab.local/ml/llm.git | cloning https://oauth2:****@gitlab.local/ml/llm.git",
        "db url               | DATABASE_URL=postgresql://app:s3cr3t@db:5432/x | DATABASE_URL=postgresql://app:****@db:5432/x",
        "password-pair        | login user=ops password=hunter2 ok | login user=ops password=**** ok",
        "password json        | {\"db_password\": \"p@ssw0rd\"} | {\"db_password\": \"****\"}",
        "secret-pair          | CLIENT_SECRET: 9f8e7d6c | CLIENT_SECRET: ****",
        "aws secret           | aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY | aws_secret_access_key = ****",
        "token-pair           | export HF_TOKEN=hf_abc | export HF_TOKEN=****",
        "access_token         | ?access_token=ya29.a0AfH6&x=1 | ?access_token=****&x=1",
        "aws-access-key       | using key AKIAIOSFODNN7EXAMPLE for s3 | using key **** for s3",
        "aliyun-access-key    | oss key LTAI5tQ9xXxXxXxXxXxX ok | oss key **** ok",
        "jwt                  | got eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U | got ****",
        "huggingface-token    | hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 | ****",
        "github-token         | ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ab | ****",
        "name after a non-ASCII letter | ÄTOKEN=abc1 ñpassword=x | ÄTOKEN=**** ñpassword=****",
        "private key one line | -----BEGIN RSA PRIVATE KEY-----MIIEpAIBAAKCAQEA-----END RSA PRIVATE KEY----- | -----BEGIN RSA PRIVATE KEY-----****-----END RSA PRIVATE KEY-----",
    })
    void secretsAreMasked(String rule, String line, String expected) {
        assertEquals(expected, masker.mask(line, new Masker.BlockState()));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "epoch 1 step 200 loss=1.0234 lr=1.9e-05 grad_norm=0.87",
        "{'loss': 1.2345, 'learning_rate': 2e-05, 'epoch': 0.12}",
        "tokens=4096 throughput=12345.6 tokens/s",
        "num_tokens: 2048",
        "max_new_tokens=512 total_tokens: 1048576",
        "{\"train_tokens_per_second\": 3521.4, \"num_input_tokens_seen\": 409600}",
        "Using pad_token, but it is not set yet. eos_token=</s> pad_token: <pad>",
        "tokenizer=meta-llama/Llama-2-7b-hf token_count=17",
        "token=42",
        " 12%|█▏        | 120/1000 [01:02<07:35,  1.93it/s]",
        "gpu-node-07:1234:1234 [0] NCCL INFO Channel 00/02 :    0   1   2   3",
        "KeyError: 'input_ids' (keys: dict_keys(['labels']))",
        "Saving model checkpoint to /mnt/ckpt/checkpoint-500; password_length=12 is not a password",
        "File \"/usr/lib/python3.10/site-packages/torch/nn/modules/module.py\", line 1518, in _wrapped_call_impl",
    })
    void ordinaryTrainingOutputIsLeftAlone(String line) {
        assertSame(line, masker.mask(line, new Masker.BlockState()));
    }

    @Test
    void aPrivateKeyPrintedLineByLineIsMaskedUpToItsEnd() {
        Masker.BlockState s = new Masker.BlockState();
        assertEquals("-----BEGIN OPENSSH PRIVATE KEY-----", masker.mask("-----BEGIN OPENSSH PRIVATE KEY-----", s));
        assertEquals("****", masker.mask("b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAABlwAAAAdzc2gtcn", s));
        assertEquals("****", masker.mask("NhAAAAAwEAAQAAAYEAzZ3b", s));
        assertEquals("****-----END OPENSSH PRIVATE KEY-----", masker.mask("-----END OPENSSH PRIVATE KEY-----", s));
        assertEquals("step 1 loss=2.0", masker.mask("step 1 loss=2.0", s));
    }

    @Test
    void configuredRulesReplaceAddOrSwitchOffDefaults() {
        LogsConfig.Masking.Rule custom = rule("\\bSK-(?<secret>[A-Z0-9]{6})\\b", List.of("sk-"));
        List<MaskingRules.Rule> rules = MaskingRules.of(Map.of("vendor", custom, "jwt", rule("", List.of())));
        Masker m = new Masker(rules, "****");
        assertEquals("SK-**** ok", m.mask("SK-ABC123 ok", null));
        String jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N";
        assertSame(jwt, m.mask(jwt, null));
    }

    /**
     * The rules as first written, every regex run on every line (no hints): the reference the default rules with their
     * hints and rewritten starts must mask exactly like. (One difference, on purpose: a key name glued to a non-ASCII
     * letter, {@code ÄTOKEN=…}, is masked now; Java's {@code \b} counted that letter as part of the word, so the first
     * form did not.)
     */
    private static final Masker REFERENCE = new Masker(reference(), "****");

    private static List<MaskingRules.Rule> reference() {
        String value = "[\"']?\\s*[:=]\\s*[\"']?";
        String secret = "(?<secret>[^\\s\"',;&}]+)";
        List<MaskingRules.Rule> rules = new java.util.ArrayList<>();
        for (MaskingRules.Rule r : MaskingRules.defaults()) {
            String regex = switch (r.name()) {
                case "password-pair" -> "(?i)\\b[\\w.-]*(?:password|passwd|secret|credentials?|api[_-]?key|apikey"
                        + "|access[_-]?key|secret[_-]?key|private[_-]?key)" + value + secret;
                case "token-pair" -> "(?i)\\b[\\w.-]*?(?<!pad_|eos_|bos_|unk_|sep_|cls_|mask_|pad|eos|bos|unk|sep|cls)token"
                        + value + "(?!\\d+\\b)" + secret;
                default -> r.pattern().pattern();
            };
            rules.add(new MaskingRules.Rule(r.name(), java.util.regex.Pattern.compile(regex), List.of()));
        }
        return rules;
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "HF_TOKEN=hf_abc and access_token: 'x1' and pad_token=<pad> and PAD_TOKEN = y and mask_token=m masktoken=k",
        "xtoken_token=abc token=42 token=42x tokens=1 my.token = \"v\" token\t=t token\"=q",
        "aws_secret_access_key = A api-key: B apikey=C private_key=D secret_key='E' db.passwd=F credentials: G",
        "password=secret=abc; Secret_Key=z, KeyError: 'x' keys: y monkey=1 passage=2 passing the test",
        "Authorization: Bearer abc.def-123 and bearer xyz12345678 proxy-authorization=basic Zm9v",
        "ünïcödé password=çava token=日本語 \u212Aey=1",
        "-----BEGIN RSA PRIVATE KEY-----abc-----END RSA PRIVATE KEY----- AKIAIOSFODNN7EXAMPLE LTAI5tQ9xXxXxXxXxXxX",
    })
    void maskedExactlyAsByTheRulesAsFirstWrittenOnTrickyLines(String line) {
        assertEquals(REFERENCE.mask(line, new Masker.BlockState()), masker.mask(line, new Masker.BlockState()));
    }

    @Test
    void maskedExactlyAsByTheRulesAsFirstWrittenOnTrainingOutput() {
        for (int seed = 0; seed < 4; seed++) {
            io.jobmon.logs.bench.Workload w = new io.jobmon.logs.bench.Workload(seed, seed);
            for (int i = 0; i < 5_000; i++) {
                String line = w.next();
                assertEquals(REFERENCE.mask(line, null), masker.mask(line, null), line);
            }
        }
    }

    /**
     * The intake asks {@link Masker#clean} on a line's UTF-8 bytes before it makes a string of it: a line it calls
     * clean must be one masking leaves alone (else a secret would be stored), and ordinary output must be clean (else
     * the fast path is never taken). Checked on lines with secrets, on training output, on other scripts, and on
     * characters that lowercase to ASCII (the Kelvin sign, dotted capital I) hiding a key name.
     */
    @Test
    void aLineCalledCleanOnItsBytesIsOneMaskingLeavesAlone() {
        List<String> lines = new java.util.ArrayList<>(List.of(
            "sending Bearer abcDEF123.456-xyz_ok/+= done", "login user=ops password=hunter2 ok", "ÄTOKEN=abc1 ñpassword=x",
            "-----BEGIN OPENSSH PRIVATE KEY-----", "export HF_TOKEN=hf_abc", "oss key LTAI5tQ9xXxXxXxXxXxX ok",
            "to\u212Aen=abc1 and \u0130 and to\u212AEN: x", "passw\u00f6rd=x 日本語 token=日本語 🚀 password=🚀🚀",
            "epoch 1 step 200 loss=1.0234 lr=1.9e-05", " 12%|█▏        | 120/1000 [01:02<07:35,  1.93it/s]",
            "{'loss': 1.2345, 'learning_rate': 2e-05}", "tokens=4096 throughput=12345.6 tokens/s", "日本語の学習ログ", ""));
        for (int seed = 0; seed < 2; seed++) {
            io.jobmon.logs.bench.Workload w = new io.jobmon.logs.bench.Workload(seed, seed);
            for (int i = 0; i < 5_000; i++) {
                lines.add(w.next());
            }
        }
        int clean = 0;
        for (String line : lines) {
            byte[] utf8 = ("[" + line + "]").getBytes(java.nio.charset.StandardCharsets.UTF_8);
            if (masker.clean(utf8, 1, utf8.length - 1)) {
                Masker.BlockState state = new Masker.BlockState();
                assertSame(line, masker.mask(line, state), line);
                assertEquals(-1, state.linesInBlock, line);
                clean++;
            }
        }
        assertTrue(clean > lines.size() * 9 / 10, "most training output needs no string: " + clean + " of " + lines.size());
        byte[] kelvin = "to\u212Aen=abc1".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertFalse(masker.clean(kelvin, 0, kelvin.length), "the Kelvin sign lowercases to k: token=");
    }

    @Test
    void aConfiguredRuleWithAHintInAnotherScriptIsNeverSkippedOnBytes() {
        Masker m = new Masker(MaskingRules.of(Map.of("cn-password", rule("密码[:：=]\\s*(?<secret>\\S+)", List.of("密码")))), "****");
        String line = "数据库密码=hunter2 已连接";
        byte[] utf8 = line.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertFalse(m.clean(utf8, 0, utf8.length), "a hint beyond ASCII is found by the string scan only");
        assertEquals("数据库密码=**** 已连接", m.mask(line, new Masker.BlockState()));
    }

    @Test
    void aRuleBeyondTheHintScansBitsIsNeverSkippedOnBytes() {
        Map<String, LogsConfig.Masking.Rule> many = new java.util.LinkedHashMap<>();
        for (int i = 0; i < 70; i++) {
            many.put("vendor-" + i, rule("tok" + i + "=(?<secret>\\w+)", List.of("tok" + i + "=")));
        }
        Masker m = new Masker(MaskingRules.of(many), "****");
        byte[] utf8 = "login tok69=abc ok".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertFalse(m.clean(utf8, 0, utf8.length), "rule 80 of 82 has no bit: the string scan looks for its hint");
        assertEquals("login tok69=**** ok", m.mask("login tok69=abc ok", new Masker.BlockState()));
    }

    private static LogsConfig.Masking.Rule rule(String regex, List<String> hints) {
        return new LogsConfig.Masking.Rule() {
            @Override
            public String regex() {
                return regex;
            }

            @Override
            public Optional<List<String>> hint() {
                return Optional.of(hints);
            }
        };
    }
}
