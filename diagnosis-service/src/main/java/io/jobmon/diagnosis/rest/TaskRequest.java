package io.jobmon.diagnosis.rest;

import java.time.Instant;
import java.util.List;

/**
 * Body of {@code POST /api/v1/jobs/{id}/diagnoses}; every field is optional.
 *
 * @param from start of the evidence window (default: {@code to} minus 30 minutes)
 * @param to end of the evidence window (default: now); at most 30 minutes after {@code from}
 * @param metrics metrics-service names to analyse (e.g. {@code gpu_util}); default: the GPU set
 * @param hint free text about the program, e.g. its progress-bar format
 */
@org.eclipse.microprofile.openapi.annotations.media.Schema(name = "DiagnosisRequest")
public record TaskRequest(Instant from, Instant to, List<String> metrics, String hint) {
}
