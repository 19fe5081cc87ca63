package io.periscope.entity;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.testing.EntityTestKits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
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

  /** A call that compares or looks up text: {@code a.equals(b)}, {@code list.contains(x)}, … */
  private static final Pattern COMPARISON =
      Pattern.compile("\\.(equals|contains|startsWith|endsWith|matches)\\(");

  private static final String MESSAGE = "getMessage()";

  /**
   * Where {@code code} reads a message as a decision: a comparison whose operands (what it is
   * called on, unless that is {@code Objects}, and its arguments) hold a message and something that
   * is not one. Two messages compared with each other are a value's equality, not a decision.
   */
  static List<Integer> messagesReadAsDecisions(String code) {
    List<Integer> at = new ArrayList<>();
    Matcher m = COMPARISON.matcher(code);
    while (m.find()) {
      List<String> operands = new ArrayList<>(arguments(code, m.end()));
      String receiver = receiver(code, m.start());
      if (!receiver.endsWith("Objects")) operands.add(receiver);
      boolean aMessage = operands.stream().anyMatch(o -> o.endsWith(MESSAGE));
      boolean somethingElse = operands.stream().anyMatch(o -> !o.endsWith(MESSAGE));
      if (aMessage && somethingElse) at.add(m.start());
    }
    return at;
  }

  /** The expression a call at {@code dot} is made on: names, dots and bracketed calls. */
  private static String receiver(String code, int dot) {
    int i = dot;
    int depth = 0;
    while (i > 0) {
      char c = code.charAt(i - 1);
      if (c == ')') depth++;
      else if (c == '(' && depth > 0) depth--;
      else if (depth == 0 && !(Character.isJavaIdentifierPart(c) || c == '.')) break;
      i--;
    }
    return code.substring(i, dot).strip();
  }

  /** The top-level arguments of the call whose parenthesis opens just before {@code from}. */
  private static List<String> arguments(String code, int from) {
    List<String> arguments = new ArrayList<>();
    int depth = 0;
    int start = from;
    for (int i = from; i < code.length(); i++) {
      char c = code.charAt(i);
      if (c == '(') depth++;
      else if (c == ')' && depth-- == 0) {
        arguments.add(code.substring(start, i).strip());
        break;
      } else if (c == ',' && depth == 0) {
        arguments.add(code.substring(start, i).strip());
        start = i + 1;
      }
    }
    arguments.removeIf(String::isEmpty);
    return arguments;
  }

  @Test
  public void noMainCodeDecidesByAMessage() throws Exception {
    List<String> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String code = Files.readString(file);
        for (int at : messagesReadAsDecisions(code))
          found.add(file + ":" + (code.substring(0, at).split("\n", -1).length));
      }
    }
    assertEquals("refusals are told apart by their code, not their words", List.of(), found);
  }

  @Test
  public void theCheckSeesAMessageComparedWithText() {
    assertDecides("if (e.getMessage().equals(NO_SUCH_RUN))");
    assertDecides("NO_SUCH_RUN.equals(unwrap(e).getMessage())");
    assertDecides("Objects.equals(e.getMessage(), \"run not found\")");
    assertDecides("KNOWN.contains(\n    e.getCause().getMessage())");
  }

  @Test
  public void theCheckLeavesAloneWhatDecidesNothingByWords() {
    assertNoDecision("throw new Refusal(kind, e.getMessage());");
    assertNoDecision("if (code.equals(expected)) return fail(e.getMessage());");
    assertNoDecision("return code == r.code && Objects.equals(r.getMessage(), getMessage());");
  }

  private static void assertDecides(String code) {
    assertEquals(code, 1, messagesReadAsDecisions(code).size());
  }

  private static void assertNoDecision(String code) {
    assertEquals(code, List.of(), messagesReadAsDecisions(code));
  }
}
