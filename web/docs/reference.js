// The API reference at /docs: Swagger UI (vendored from the npm registry, see
// web/docs/swagger-ui-dist-*/) over this server's own /openapi.json. "Try it out" sends
// requests to this same server, as the playground does.
'use strict';

window.addEventListener('DOMContentLoaded', () => {
  window.ui = window.SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#reference',
    deepLinking: true,
    // The document's own `servers` entry names localhost:8080; wherever the page is served
    // from is where its requests should go.
    onComplete: () => {
      const spec = window.ui.specSelectors.specJson().toJS();
      spec.servers = [{ url: window.location.origin }];
      window.ui.specActions.updateJsonSpec(spec);
    },
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    defaultModelsExpandDepth: 0,
    tryItOutEnabled: false,
  });
});
