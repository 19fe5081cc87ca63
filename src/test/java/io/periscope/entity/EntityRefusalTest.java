package io.periscope.entity;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.testing.EntityTestKits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializers;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * A refusal keeps its code where it crosses the cluster: an entity's error reply, serialized as
 * remoting does and read back, is the same refusal.
 */
public class EntityRefusalTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  @Test
  public void anErrorReplyKeepsItsCodeAndMessageOverTheWire() {
    StatusReply<Object> sent = EntityRefusal.reply(EntityRefusal.Code.NO_SUCH_RUN, "run not found");
    Serialization serialization = SerializationExtension.get(testKit.system());
    var serializer = serialization.findSerializerFor(sent);
    byte[] bytes = serializer.toBinary(sent);
    StatusReply<?> received =
        (StatusReply<?>)
            serialization
                .deserialize(
                    bytes, serializer.identifier(), Serializers.manifestFor(serializer, sent))
                .get();

    assertTrue(received.isError());
    assertEquals(sent.getError(), received.getError());
    EntityRefusal refusal = (EntityRefusal) received.getError();
    assertEquals(EntityRefusal.Code.NO_SUCH_RUN, refusal.code());
    assertEquals("run not found", refusal.getMessage());
    assertTrue(EntityRefusal.is(refusal, EntityRefusal.Code.NO_SUCH_RUN));
  }

  @Test
  public void aRefusalInWordsAloneHasNoCodeToActOn() {
    EntityRefusal refusal = new EntityRefusal("no such watch");
    assertEquals(EntityRefusal.Code.REFUSED, refusal.code());
    assertTrue(!EntityRefusal.is(refusal, EntityRefusal.Code.NO_SUCH_RUN));
  }

  /**
   * A message read as a decision: {@code x.getMessage().equals(...)}, or a message handed to one.
   */
  private static final Pattern READ_AS_DECISION =
      Pattern.compile(
          "getMessage\\(\\)\\s*\\.\\s*(equals|contains|startsWith|endsWith|matches)\\("
              + "|(?<!Objects)\\.(equals|contains|startsWith|endsWith)\\([^;]*getMessage\\(\\)");

  @Test
  public void noMainCodeDecidesByAMessage() throws Exception {
    List<String> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        List<String> lines = Files.readAllLines(file);
        for (int i = 0; i < lines.size(); i++)
          if (READ_AS_DECISION.matcher(lines.get(i)).find()) found.add(file + ":" + (i + 1));
      }
    }
    assertEquals("refusals are told apart by their code, not their words", List.of(), found);
  }

  @Test
  public void theCheckSeesAMessageComparedEitherWay() {
    assertTrue(READ_AS_DECISION.matcher("if (e.getMessage().equals(NO_SUCH_RUN))").find());
    assertTrue(READ_AS_DECISION.matcher("NO_SUCH_RUN.equals(unwrap(e).getMessage())").find());
    assertTrue(!READ_AS_DECISION.matcher("throw new Refusal(kind, e.getMessage());").find());
  }
}
