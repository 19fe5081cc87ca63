package io.periscope.entity;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import io.periscope.account.AccountEntity;
import io.periscope.account.ApiToken;
import io.periscope.auth.IdentityLinkEntity;
import io.periscope.auth.TokenScope;
import io.periscope.testing.EntityTestKits;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.SerializerWithStringManifest;
import org.junit.ClassRule;
import org.junit.Test;

/** Events journaled before a record got a field read as what they were. */
public class EarlierShapesTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  private static Object read(Object sameKind, String json) throws Exception {
    var serializer =
        (SerializerWithStringManifest)
            SerializationExtension.get(testKit.system()).findSerializerFor(sameKind);
    return serializer.fromBinary(
        json.getBytes(StandardCharsets.UTF_8), serializer.manifest(sameKind));
  }

  @Test
  public void anApiTokenMadeBeforeScopesMayReadAndChangeButNotAdminister() throws Exception {
    ApiToken now =
        new ApiToken("t0", "x", "h", Instant.EPOCH, null, null, List.of(TokenScope.ADMIN));
    var event =
        (AccountEntity.ApiTokenCreated)
            read(
                new AccountEntity.ApiTokenCreated(now),
                """
                {"token": {"id": "t1", "name": "ci", "hash": "hash-1",
                 "createdAt": "2026-01-01T00:00:00Z", "expiresAt": null, "lastUsedAt": null}}\
                """);
    assertNull(event.token().scopes());
    assertEquals(EnumSet.of(TokenScope.READ, TokenScope.WATCHES), event.token().grants());
    assertEquals(List.of(TokenScope.READ, TokenScope.WATCHES), event.token().view().scopes());
    assertNull("no expiry, as it was made", event.token().expiresAt());
  }

  @Test
  public void aLinkProposedBeforeLoginsWereKeptHasNone() throws Exception {
    var now =
        new IdentityLinkEntity.LinkProposed(
            new IdentityLinkEntity.Pending("a", "github", "h", Instant.EPOCH, "octocat"));
    var event =
        (IdentityLinkEntity.LinkProposed)
            read(
                now,
                """
                {"pending": {"accountId": "wanda", "provider": "keycloak", "tokenHash": "h1",
                 "expiresAt": "2026-01-01T01:00:00Z"}}\
                """);
    assertEquals("keycloak", event.pending().provider());
    assertNull(event.pending().login());
  }

  @Test
  public void aWebhookSecretStateOfBeforeEndpointsHasNone() throws Exception {
    var state =
        (io.periscope.channels.WebhookSecretEntity.State)
            read(
                new io.periscope.channels.WebhookSecretEntity.State(null, null),
                """
                {"ciphertext": "v2:abcd:sealed", "createdAt": "2026-01-01T00:00:00Z"}\
                """);
    assertEquals("v2:abcd:sealed", state.ciphertext());
    assertEquals(java.util.Map.of(), state.endpoints());
    assertEquals(
        "the account's secret signs every endpoint",
        "v2:abcd:sealed",
        state.signing("any").ciphertext());
  }
}
