//! One error type for the binary, mapping to exit codes.

use std::process::ExitCode;

use crate::output;

#[derive(Debug)]
pub enum CliError {
    /// The command line was wrong (exit 2).
    Usage {
        message: String,
        hint: Option<String>,
    },
    /// The work failed (exit 1).
    Failure {
        error: anyhow::Error,
        hint: Option<String>,
    },
    /// Already reported; exit with this code.
    Exit(u8),
}

impl CliError {
    pub fn usage(message: impl Into<String>) -> Self {
        CliError::Usage {
            message: message.into(),
            hint: None,
        }
    }

    pub fn with_hint(self, hint: impl Into<String>) -> Self {
        match self {
            CliError::Usage { message, .. } => CliError::Usage {
                message,
                hint: Some(hint.into()),
            },
            CliError::Failure { error, .. } => CliError::Failure {
                error,
                hint: Some(hint.into()),
            },
            other => other,
        }
    }

    pub fn report(self) -> ExitCode {
        match self {
            CliError::Usage { message, hint } => {
                output::error(&message, hint.as_deref());
                ExitCode::from(2)
            }
            CliError::Failure { error, hint } => {
                let chain: Vec<String> = error.chain().map(|e| e.to_string()).collect();
                output::error(&chain.join(": "), hint.as_deref());
                ExitCode::from(1)
            }
            CliError::Exit(code) => ExitCode::from(code),
        }
    }
}

impl<E: Into<anyhow::Error>> From<E> for CliError {
    fn from(e: E) -> Self {
        let error: anyhow::Error = e.into();
        let hint = match error.downcast_ref::<fornax_store::StoreError>() {
            Some(fornax_store::StoreError::Missing(_)) => {
                Some("run `fornax scan` to build the index".to_string())
            }
            Some(fornax_store::StoreError::AmbiguousSession { .. }) => {
                Some("type more of the session id".to_string())
            }
            Some(fornax_store::StoreError::NoSuchSession(_)) => {
                Some("`fornax sessions` lists what is indexed".to_string())
            }
            _ => None,
        };
        CliError::Failure { error, hint }
    }
}
