// Package todomvc drives a TodoMVC app in a browser through one scripted
// session (the serve package's test of the three apps, and make bench's
// browser group, which times it).
package todomvc

import (
	"context"
	"fmt"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Patience is how long RunLike waits for an app to show what it should.
const Patience = 3 * time.Second

// Step is one step of the session.
type Step struct {
	Name string
	Act  func() chromedp.Action[chromedp.Void]
}

// Steps: three todos added, one completed, the filters, one deleted, the
// completed cleared.
var Steps = []Step{
	{"add first", func() chromedp.Action[chromedp.Void] { return chromedp.SendKeys(".new-todo", "buy milk"+kb.Enter) }},
	{"add second", func() chromedp.Action[chromedp.Void] { return chromedp.SendKeys(".new-todo", "walk the dog"+kb.Enter) }},
	{"add third", func() chromedp.Action[chromedp.Void] { return chromedp.SendKeys(".new-todo", "write tests"+kb.Enter) }},
	{"complete first", func() chromedp.Action[chromedp.Void] { return chromedp.Click(".todo-list li:nth-child(1) .toggle") }},
	{"show active", func() chromedp.Action[chromedp.Void] {
		return clickJS(`document.querySelector('.filters li:nth-child(2) a')`)
	}},
	{"show all", func() chromedp.Action[chromedp.Void] {
		return clickJS(`document.querySelector('.filters li:nth-child(1) a')`)
	}},
	{"delete second", func() chromedp.Action[chromedp.Void] {
		return clickJS(`document.querySelector('.todo-list li:nth-child(2) .destroy')`)
	}},
	{"clear completed", func() chromedp.Action[chromedp.Void] { return clickJS(`document.querySelector('.clear-completed')`) }},
}

// clickJS clicks the element expr names (hidden ones too, as a destroy
// button is until hovered).
func clickJS(expr string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](`(` + expr + `).click()`)
}

// Run opens the app at page in the browser of ctx, runs the session and
// returns the app's text after each step (pause: the wait after each
// step, for the app to render), then leaves the page. It returns too how
// long the session took from the navigation to the last step's text.
func Run(ctx context.Context, page string, pause time.Duration) ([]string, time.Duration, error) {
	return RunLike(ctx, page, pause, nil)
}

// RunLike is Run for an app that should show want after each step (the
// same app's texts untraced): after the pause it waits up to Patience
// for the text to be want's, so that an app slowed down by tracing, on a
// loaded machine, is not read before it has rendered; a text that stays
// different is returned as it is.
func RunLike(ctx context.Context, page string, pause time.Duration, want []string) ([]string, time.Duration, error) {
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.Navigate(page)); err != nil {
		return nil, 0, err
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible(".new-todo")); err != nil {
		return nil, 0, err
	}
	var out []string
	for _, st := range Steps {
		if err := chromedp.Do(ctx, st.Act()); err != nil {
			return nil, 0, fmt.Errorf("%s: %s: %w", page, st.Name, err)
		}
		if pause > 0 {
			time.Sleep(pause)
		}
		var text string
		for deadline := time.Now().Add(Patience); ; time.Sleep(50 * time.Millisecond) {
			var err error
			text, err = chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('.todoapp').innerText`))
			if err != nil {
				return nil, 0, fmt.Errorf("%s: %s: %w", page, st.Name, err)
			}
			if len(want) <= len(out) || text == want[len(out)] || time.Now().After(deadline) {
				break
			}
		}
		out = append(out, text)
	}
	took := time.Since(start)
	return out, took, nil
}
