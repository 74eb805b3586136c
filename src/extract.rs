//! What handlers of the API and of the pages take from the app beyond the request: the
//! server's tables, or the surface's own refusal when it was started without them.

use std::future::{Ready, ready};
use std::marker::PhantomData;
use std::ops::Deref;

use actix_web::dev::Payload;
use actix_web::web::Data;
use actix_web::{FromRequest, HttpRequest, ResponseError};

use crate::tables::TablePolicy;

/// How a surface refuses a request for tables on a server started without them (the API's
/// `tables_off` problem, the pages' "No tables here").
pub trait TablesOff {
    /// The refusal.
    fn tables_off() -> Self;
}

/// The server's tables under their policy, as a handler's argument: extracting it from an app
/// without tables fails with the surface's refusal `E`.
pub struct KeptTables<E> {
    policy: Data<TablePolicy>,
    refusal: PhantomData<fn() -> E>,
}

impl<E> Deref for KeptTables<E> {
    type Target = TablePolicy;

    fn deref(&self) -> &TablePolicy {
        &self.policy
    }
}

impl<E: TablesOff + ResponseError + 'static> FromRequest for KeptTables<E> {
    type Error = E;
    type Future = Ready<Result<Self, E>>;

    fn from_request(http: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(
            http.app_data::<Data<TablePolicy>>()
                .cloned()
                .map(|policy| KeptTables {
                    policy,
                    refusal: PhantomData,
                })
                .ok_or_else(E::tables_off),
        )
    }
}
