//! OTLP over gRPC (cargo feature `grpc`): the `opentelemetry-proto` tonic client, one unary
//! `Export` call per request on a current-thread runtime.

use opentelemetry_proto::tonic::collector::trace::v1::trace_service_client::TraceServiceClient;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;

use crate::ExportError;

/// Sends one request; returns how many spans the receiver rejected.
pub fn export(endpoint: &str, request: ExportTraceServiceRequest) -> Result<i64, ExportError> {
    let err = |detail: String| ExportError::Endpoint {
        endpoint: endpoint.to_string(),
        detail,
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| err(e.to_string()))?;
    rt.block_on(async {
        let mut client = TraceServiceClient::connect(endpoint.to_string())
            .await
            .map_err(|e| err(format!("connect: {e}")))?;
        let response = client
            .export(request)
            .await
            .map_err(|e| err(format!("export: {e}")))?;
        Ok(response
            .into_inner()
            .partial_success
            .map(|p| p.rejected_spans)
            .unwrap_or(0))
    })
}
