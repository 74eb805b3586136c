//! "Turn on notifications": the control that asks the browser to push the player's notices
//! (its turn, a deadline near). Push needs the pages' script, so the control is rendered
//! `hidden` and the script shows it only where the browser can push (service workers, the Push
//! API, notifications); the words of each state travel in its attributes, for the script to
//! show.

use maud::{Markup, html};

/// The control's words, each state's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NotificationsView {
    /// The section's heading (`Notifications`).
    pub heading: String,
    /// What turning them on does.
    pub explain: String,
    /// The button's words while off (`Turn on notifications`).
    pub turn_on: String,
    /// The button's words while on (`Turn off notifications`).
    pub turn_off: String,
    /// The status while off.
    pub off: String,
    /// The status while on.
    pub on: String,
    /// The status while being turned on or off.
    pub working: String,
    /// The status when the browser blocks the site's notifications: how to allow them.
    pub blocked: String,
    /// The status when the player closed the browser's question without allowing them.
    pub dismissed: String,
    /// What failed, at each step that can: each says what could not be done.
    pub failed: Failures,
}

/// What the status says when a step fails.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Failures {
    /// The service worker could not be registered.
    pub worker: String,
    /// The server's key could not be read.
    pub key: String,
    /// The browser's push service gave no subscription.
    pub subscribe: String,
    /// Moot did not keep the subscription (the server's reason follows).
    pub keep: String,
    /// Turning them off failed.
    pub forget: String,
}

/// The control: a heading, a line on what it does, the button, and the status line a screen
/// reader reads as it changes.
pub fn control(view: &NotificationsView) -> Markup {
    html! {
        section.notifications #notifications hidden aria-labelledby="notifications-heading"
            data-turn-on=(view.turn_on) data-turn-off=(view.turn_off) data-off=(view.off)
            data-on=(view.on) data-working=(view.working) data-blocked=(view.blocked)
            data-dismissed=(view.dismissed) data-failed-worker=(view.failed.worker)
            data-failed-key=(view.failed.key) data-failed-subscribe=(view.failed.subscribe)
            data-failed-keep=(view.failed.keep) data-failed-forget=(view.failed.forget) {
            h2 #notifications-heading { (view.heading) }
            p { (view.explain) }
            p {
                button.secondary #notify type="button" { (view.turn_on) }
            }
            p #notify-status role="status" aria-live="polite" {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_control_is_hidden_until_the_script_shows_it_and_carries_every_states_words() {
        let view = NotificationsView {
            heading: "Notifications".into(),
            turn_on: "Turn on notifications".into(),
            blocked: "Blocked: allow them in the site's settings.".into(),
            failed: Failures {
                key: "The key could not be read.".into(),
                ..Failures::default()
            },
            ..NotificationsView::default()
        };
        let markup = control(&view).into_string();
        assert!(
            markup.starts_with(r#"<section class="notifications" id="notifications" hidden"#),
            "{markup}"
        );
        assert!(markup.contains(r#"<button class="secondary" id="notify" type="button">Turn on notifications</button>"#), "{markup}");
        assert!(markup.contains(r#"data-blocked="Blocked: allow them in the site's settings.""#));
        assert!(markup.contains(r#"<p id="notify-status" role="status" aria-live="polite"></p>"#));
        assert!(markup.contains(r#"data-failed-key="The key could not be read.""#));
    }
}
