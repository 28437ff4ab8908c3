package io.jobmon.logs.chunk;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.async.SdkPublisher;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * A GET's body into one array of the response's {@code Content-Length}: the SDK's {@code toBytes()} gathers it in a
 * {@code ByteArrayOutputStream} that grows by copies and is copied again at the end (a tenth of the client's CPU of a
 * round of ranged GETs in a profile, ADR 0046). Without a length (never from S3), it grows as needed.
 */
final class SizedBytes implements AsyncResponseTransformer<GetObjectResponse, byte[]> {

    private volatile CompletableFuture<byte[]> done;
    private byte[] out;
    private int at;

    @Override
    public CompletableFuture<byte[]> prepare() {
        done = new CompletableFuture<>(); // a retry prepares again
        return done;
    }

    @Override
    public void onResponse(GetObjectResponse response) {
        Long length = response.contentLength();
        out = new byte[length == null || length < 0 || length > Integer.MAX_VALUE - 16 ? 8192 : length.intValue()];
        at = 0;
    }

    @Override
    public void onStream(SdkPublisher<ByteBuffer> publisher) {
        CompletableFuture<byte[]> result = done;
        publisher.subscribe(new Subscriber<ByteBuffer>() {
            @Override
            public void onSubscribe(Subscription s) {
                s.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(ByteBuffer b) {
                int n = b.remaining();
                if (at + n > out.length) {
                    out = java.util.Arrays.copyOf(out, Math.max(at + n, out.length * 2));
                }
                b.get(out, at, n);
                at += n;
            }

            @Override
            public void onError(Throwable e) {
                result.completeExceptionally(e);
            }

            @Override
            public void onComplete() {
                result.complete(at == out.length ? out : java.util.Arrays.copyOf(out, at));
            }
        });
    }

    @Override
    public void exceptionOccurred(Throwable error) {
        done.completeExceptionally(error);
    }
}
