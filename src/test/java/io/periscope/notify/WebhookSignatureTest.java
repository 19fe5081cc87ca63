package io.periscope.notify;

import static org.junit.Assert.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.Test;

public class WebhookSignatureTest {
  /** The example of the Standard Webhooks specification. */
  private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

  private static final String ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
  private static final long AT = 1614265330;
  private static final byte[] BODY = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);
  private static final String SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

  @Test
  public void signsAsTheSpecificationsExample() {
    assertEquals(SIGNATURE, WebhookSignature.sign(SECRET, ID, AT, BODY));
  }

  /** Each thread reuses its Mac: a message signed before with another key must not show. */
  @Test
  public void signaturesOnManyThreadsBetweenOtherKeysAreTheExamples() throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      List<Callable<List<String>>> work = new ArrayList<>();
      for (int t = 0; t < 8; t++)
        work.add(
            () -> {
              List<String> signed = new ArrayList<>();
              for (int i = 0; i < 200; i++) {
                WebhookSignature.sign(WebhookSignature.newSecret(), "other", i, new byte[i]);
                signed.add(WebhookSignature.sign(SECRET, ID, AT, BODY));
              }
              return signed;
            });
      for (Future<List<String>> f : threads.invokeAll(work))
        for (String s : f.get()) assertEquals(SIGNATURE, s);
    } finally {
      threads.shutdown();
    }
  }
}
