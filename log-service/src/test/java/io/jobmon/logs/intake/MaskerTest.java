package io.jobmon.logs.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

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
