package io.periscope.testing;

import io.periscope.json.Json;
import java.util.Map;

/** The bodies the tests send to the administration routes. */
public final class AdminBodies {
  private AdminBodies() {}

  /** The body of PUT /admin/model: the model of the verdicts and that of the assistance. */
  public static String modelBody(
      String verdictsProvider,
      String verdictsBase,
      String verdictsModel,
      String assistanceProvider,
      String assistanceBase,
      String assistanceModel) {
    return Json.text(
        Map.of(
            "verdicts",
                Map.of(
                    "provider", verdictsProvider, "baseUrl", verdictsBase, "model", verdictsModel),
            "assistance",
                Map.of(
                    "provider",
                    assistanceProvider,
                    "baseUrl",
                    assistanceBase,
                    "model",
                    assistanceModel)));
  }
}
