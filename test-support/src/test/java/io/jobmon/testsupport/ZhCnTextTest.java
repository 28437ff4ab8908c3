package io.jobmon.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class ZhCnTextTest {

    @Test
    void aChineseProblemWithCodesAndNamesPasses() {
        ZhCnText.assertChinese("""
                {"type":"https://jobmon.io/problems/invalid-request","title":"请求无效","status":400,
                 "detail":"hint：最多 2000 个字符","instance":"/api/v1/jobs/j-1/diagnoses","requestId":"r-1",
                 "errors":[{"field":"hint","message":"最多 2000 个字符","code":"field.max-length"}]}""");
    }

    @Test
    void aStrayEnglishSentenceFails() {
        List<String> found = ZhCnText.rules().violations("""
                {"title":"冲突","detail":"diagnosis d-1 is RUNNING, not DONE"}""");
        assertEquals(List.of("$.detail: 'diagnosis' in \"diagnosis d-1 is RUNNING, not DONE\"",
                "$.detail: 'is' in \"diagnosis d-1 is RUNNING, not DONE\"",
                "$.detail: 'not' in \"diagnosis d-1 is RUNNING, not DONE\""), found);
        assertThrows(AssertionError.class, () -> ZhCnText.assertChinese("{\"title\":\"Bad Request\"}"));
    }

    @Test
    void aNullOrAQuestionMarkLeftInATextFails() {
        assertEquals(List.of("null"), ZhCnText.english("GPU null/? 的 Xid = 79", java.util.Set.of()));
    }

    @Test
    void codesUnitsAllowListAndQuotesPass() {
        ZhCnText.assertChinese("""
                {"summary":"GPU 3 出现 Xid 79，DCGM_FI_DEV_XID_ERRORS 上升；PCIe 与 NVLink 正常",
                 "suggestion":"将 supportsRestart 设为 true 后重试，显存 80 GiB，间隔 500 ms",
                 "detail":"镜像 'registry.local/team/img:v2' 拉取失败：“manifest unknown”"}""");
    }

    @Test
    void theClustersAndTheUsersWordsAreNotText() {
        ZhCnText.assertChinese("""
                {"items":[{"reason":"FailedScheduling","reasonCode":"unschedulable",
                  "message":"0/4 nodes are available: 4 Insufficient nvidia.com/gpu.",
                  "reasonExplanation":"暂无节点可容纳该 Pod"},
                 {"type":"Warning","reason":"BackOff","message":"Back-off restarting failed container"},
                 {"source":"log","text":"RuntimeError: CUDA out of memory"},
                 {"author":"alice","comment":"looks right to me","feedback":"alice 的反馈已记录"}]}""");
    }

    @Test
    void jobmonsOwnMessageAndAMetricsTextAreChecked() {
        assertEquals(3, ZhCnText.rules().violations("""
                {"reason":"TerminatedByFaultHandling","message":"two consecutive diagnoses"}""").size());
        assertEquals(List.of("on"), ZhCnText.rules().violations("""
                {"source":"metric","text":"Xid 79 on GPU 3"}""").stream().map(v -> v.split("'")[1]).toList());
    }

    @Test
    void moreWordsAndFieldsCanBeAllowed() {
        String json = "{\"detail\":\"作业已由 bob 停止\"}";
        assertEquals(1, ZhCnText.rules().violations(json).size());
        ZhCnText.rules().allow("bob").check(json);
        ZhCnText.rules().notText("who").check("{\"who\":\"some words\"}");
    }
}
