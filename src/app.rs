//! The whole actix application: the routes of the API, the documentation and the pages, behind
//! the middleware of [`crate::serve`]; and the OpenAPI documents built from the documented
//! routes. The server binary and the tests share it.

use std::sync::OnceLock;

use actix_web::App;
use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::middleware::from_fn;
use utoipa_actix_web::AppExt;
use utoipa_actix_web::service_config::ServiceConfig;
use utoipa_swagger_ui::SwaggerUi;

use crate::api::evaluate::Evaluator;
use crate::compute::AiConfig;
use crate::web::opponent::PageSearches;
use crate::{api, compute, serve, site, tables, web};

/// The computer player on this server: the API's governance and the play pages'.
pub type Computer = compute::Computer<Evaluator, PageSearches>;

/// The routes described in the OpenAPI document.
fn documented_routes(config: &mut ServiceConfig) {
    config.service(site::healthz);
    config.service(site::readyz);
    api::configure(config);
}

/// The OpenAPI document of the API as the handlers declare it (generic over `{game}`), built
/// once; the routes are looked up in it. Clients get [`contract`].
pub fn openapi() -> &'static utoipa::openapi::OpenApi {
    static DOCUMENT: OnceLock<utoipa::openapi::OpenApi> = OnceLock::new();
    DOCUMENT.get_or_init(|| api::docs::document(documented_routes))
}

/// The published OpenAPI document (served at `/api-docs/openapi.json`, committed as
/// `openapi/openapi.json`): [`openapi`] with one typed path per game and operation.
pub fn contract() -> &'static serde_json::Value {
    static CONTRACT: OnceLock<serde_json::Value> = OnceLock::new();
    CONTRACT.get_or_init(|| api::contract::publish(openapi()))
}

/// The whole application with the default limits of the computer player.
pub fn app() -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    app_with(Computer::new(AiConfig::default()))
}

/// The whole application with any origin allowed and metrics of its own. The `computer`
/// (limits, permits, cache) is shared by every worker given a clone of it.
pub fn app_with(
    computer: Computer,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let middleware = serve::Middleware::new(serve::Origins::Any, &computer);
    app_for(computer, middleware, None)
}

/// The whole application: API, documentation, pages, metrics, behind the middleware of
/// [`serve`]. Every worker of a server gets clones of the same `computer`, `middleware` and
/// `tables` (the database's pool is shared); without `tables` the tables' routes answer 501
/// `tables_off`.
pub fn app_for(
    computer: Computer,
    middleware: serve::Middleware,
    tables: Option<tables::TablePolicy>,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    // The answer for what no route took names the methods of the documented routes.
    api::documented::learn(openapi());
    let app = App::new()
        .into_utoipa_app()
        .configure(documented_routes)
        .into_app();
    let app = match tables {
        Some(tables) => app.app_data(actix_web::web::Data::new(tables)),
        None => app,
    };
    app.app_data(actix_web::web::PayloadConfig::new(api::body::BODY_LIMIT))
        .app_data(actix_web::web::Data::new(computer.api().clone()))
        .app_data(actix_web::web::Data::new(computer.pages().clone()))
        .app_data(actix_web::web::Data::new(computer.renders().clone()))
        .app_data(serve::metrics::data(&middleware.metrics))
        .app_data(middleware.public_url.clone())
        .app_data(middleware.site_keys.clone())
        .app_data(actix_web::web::Data::new(middleware.sampler.clone()))
        .service(serve::metrics::endpoint)
        // The reference's own page and its two additions first: Swagger UI serves the rest.
        .service(site::reference)
        .service(site::reference_stylesheet)
        .service(site::reference_script)
        .service(
            SwaggerUi::new("/docs/{_:.*}")
                .external_urls_from_iter_unchecked([(api::docs::OPENAPI_PATH, contract().clone())])
                .config(site::reference_config()),
        )
        .service(site::docs_redirect)
        .service(site::home)
        .service(site::stylesheet)
        .service(site::script)
        .service(site::push_worker)
        .service(site::favicon)
        .configure(web::configure)
        .default_service(actix_web::web::to(site::fallback))
        .wrap_fn(|mut request, service| {
            // HEAD is GET without the body (RFC 9110): route it as GET; actix's HTTP layer
            // knows the request was HEAD and sends no body.
            if request.method() == Method::HEAD {
                request.head_mut().method = Method::GET;
            }
            service.call(request)
        })
        // Inside compression: the header's link is put in a page's body before it is packed.
        .wrap(from_fn(web::games_link::middleware))
        // The last wrapped runs first: compression outermost, so the request id's middleware
        // sees problem bodies before they are compressed.
        .wrap(from_fn(serve::url_limit::middleware))
        .wrap(serve::cors::middleware(&middleware.origins))
        .wrap(from_fn(serve::cors::refusals))
        // Outside CORS, so that the preflights it answers itself get the headers too.
        .wrap(from_fn(serve::security::middleware))
        .wrap(from_fn(serve::access_log::middleware))
        .wrap(from_fn(serve::request_id::middleware))
        .wrap(from_fn(serve::compress::middleware))
}
