//! The kinds of secret the boundary recognizes, and the placeholder each one leaves behind.

use std::fmt;

/// What a redacted span was recognized as. The name appears in the placeholder
/// (`[REDACTED:<name>]`) and as the key of [`RedactionCounts`](crate::RedactionCounts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SecretKind {
    PrivateKey,
    AwsAccessKeyId,
    AwsSecretKey,
    GithubToken,
    GitlabToken,
    SlackToken,
    StripeKey,
    OpenaiKey,
    AnthropicKey,
    GoogleApiKey,
    NpmToken,
    PypiToken,
    /// A token in the documented format of another issuer (Hugging Face, Groq, xAI,
    /// DigitalOcean, SendGrid, Shopify, Grafana, Square, Google OAuth, Linear, Notion, Figma,
    /// Sentry, Docker, Replicate, Perplexity, Mailgun, Telegram, Vault, Google client secrets).
    ApiToken,
    Jwt,
    Authorization,
    UrlCredentials,
    SecretAssignment,
    CliPassword,
    HighEntropy,
}

impl SecretKind {
    pub const ALL: [SecretKind; 19] = [
        SecretKind::PrivateKey,
        SecretKind::AwsAccessKeyId,
        SecretKind::AwsSecretKey,
        SecretKind::GithubToken,
        SecretKind::GitlabToken,
        SecretKind::SlackToken,
        SecretKind::StripeKey,
        SecretKind::OpenaiKey,
        SecretKind::AnthropicKey,
        SecretKind::GoogleApiKey,
        SecretKind::NpmToken,
        SecretKind::PypiToken,
        SecretKind::ApiToken,
        SecretKind::Jwt,
        SecretKind::Authorization,
        SecretKind::UrlCredentials,
        SecretKind::SecretAssignment,
        SecretKind::CliPassword,
        SecretKind::HighEntropy,
    ];

    /// The stable name used in placeholders and counts.
    pub fn as_str(self) -> &'static str {
        match self {
            SecretKind::PrivateKey => "private_key",
            SecretKind::AwsAccessKeyId => "aws_access_key_id",
            SecretKind::AwsSecretKey => "aws_secret_key",
            SecretKind::GithubToken => "github_token",
            SecretKind::GitlabToken => "gitlab_token",
            SecretKind::SlackToken => "slack_token",
            SecretKind::StripeKey => "stripe_key",
            SecretKind::OpenaiKey => "openai_key",
            SecretKind::AnthropicKey => "anthropic_key",
            SecretKind::GoogleApiKey => "google_api_key",
            SecretKind::NpmToken => "npm_token",
            SecretKind::PypiToken => "pypi_token",
            SecretKind::ApiToken => "api_token",
            SecretKind::Jwt => "jwt",
            SecretKind::Authorization => "authorization",
            SecretKind::UrlCredentials => "url_credentials",
            SecretKind::SecretAssignment => "secret_assignment",
            SecretKind::CliPassword => "cli_password",
            SecretKind::HighEntropy => "high_entropy",
        }
    }

    /// The text that replaces a secret of this kind. It contains no character that needs
    /// escaping in JSON, shell or YAML, so it can be written inside any quoted value.
    pub fn placeholder(self) -> &'static str {
        match self {
            SecretKind::PrivateKey => "[REDACTED:private_key]",
            SecretKind::AwsAccessKeyId => "[REDACTED:aws_access_key_id]",
            SecretKind::AwsSecretKey => "[REDACTED:aws_secret_key]",
            SecretKind::GithubToken => "[REDACTED:github_token]",
            SecretKind::GitlabToken => "[REDACTED:gitlab_token]",
            SecretKind::SlackToken => "[REDACTED:slack_token]",
            SecretKind::StripeKey => "[REDACTED:stripe_key]",
            SecretKind::OpenaiKey => "[REDACTED:openai_key]",
            SecretKind::AnthropicKey => "[REDACTED:anthropic_key]",
            SecretKind::GoogleApiKey => "[REDACTED:google_api_key]",
            SecretKind::NpmToken => "[REDACTED:npm_token]",
            SecretKind::PypiToken => "[REDACTED:pypi_token]",
            SecretKind::ApiToken => "[REDACTED:api_token]",
            SecretKind::Jwt => "[REDACTED:jwt]",
            SecretKind::Authorization => "[REDACTED:authorization]",
            SecretKind::UrlCredentials => "[REDACTED:url_credentials]",
            SecretKind::SecretAssignment => "[REDACTED:secret_assignment]",
            SecretKind::CliPassword => "[REDACTED:cli_password]",
            SecretKind::HighEntropy => "[REDACTED:high_entropy]",
        }
    }

    /// When two detections overlap, the merged span takes the kind with the higher rank: a
    /// recognized token format says more than the context it was found in, and any context
    /// says more than entropy alone.
    pub(crate) fn rank(self) -> u8 {
        match self {
            SecretKind::HighEntropy => 0,
            SecretKind::SecretAssignment => 1,
            SecretKind::CliPassword => 2,
            SecretKind::AwsSecretKey => 3,
            SecretKind::UrlCredentials => 4,
            SecretKind::Authorization => 5,
            _ => 6,
        }
    }
}

impl fmt::Display for SecretKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Common start of every placeholder; a value that begins with it was already redacted.
pub(crate) const PLACEHOLDER_PREFIX: &str = "[REDACTED:";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_name_their_kind() {
        for kind in SecretKind::ALL {
            assert_eq!(kind.placeholder(), format!("[REDACTED:{}]", kind.as_str()));
            assert!(kind.placeholder().starts_with(PLACEHOLDER_PREFIX));
        }
    }

    #[test]
    fn placeholders_are_json_safe() {
        for kind in SecretKind::ALL {
            let json = serde_json::to_string(kind.placeholder()).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.placeholder()));
        }
    }
}
