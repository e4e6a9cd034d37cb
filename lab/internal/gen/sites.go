package gen

import "strings"

// site is a fake publisher: its name, its domain and the boilerplate lines
// its pages carry.
type site struct {
	name, domain string
	boilerplate  []string
}

// siteNames are the fake publishers documents are attributed to.
var siteNames = []string{
	"Daily Ledger", "Market Wire Online", "The Evening Courier", "Northern Gazette",
	"Harbour Times", "City Business Journal", "Global Newsdesk", "The Morning Dispatch",
	"Trade Monitor", "Valley Herald", "Capital Observer", "Coastal Chronicle",
	"Finance Today", "The Weekly Register", "Metro Post", "Continental Report",
}

// boilerplateTemplates are page furniture; {site} is the publisher's name.
// Each site gets all of them, so every line is shared by many unrelated
// documents of that site.
var boilerplateTemplates = []string{
	"Subscribe to the {site} newsletter for daily updates.",
	"Sign up for {site} alerts and never miss a story.",
	"Copyright {site}. All rights reserved.",
	"This article first appeared in the print edition of {site}.",
	"Follow {site} on social media for the latest headlines.",
	"Advertisement - scroll down to continue reading.",
	"Skip to main content",
	"Share this article with your friends and colleagues.",
	"Read more business news at {site}.",
	"Have a story tip? Contact the {site} newsroom.",
	"Reporting by {site} staff; editing by the news desk.",
	"Click here to download the {site} app for your phone.",
	"Comments on this story are moderated by {site} editors.",
	"Related coverage: more stories from this section.",
	"Most read today on {site}",
	"Get unlimited access to {site} for one low monthly price.",
	"We use cookies to improve your experience on {site}.",
	"By continuing to browse {site} you agree to our terms of use.",
	"Print this page | Email this page | Save for later",
	"{site} is not responsible for the content of external sites.",
	"Back to top",
	"Listen to this article on the {site} podcast.",
	"Photo: {site} archive.",
	"Markets data delayed by at least 15 minutes.",
	"Corrections and clarifications: write to the {site} readers' editor.",
	"Join the conversation in the comments below.",
	"More from {site}: business, politics, world and markets.",
	"Report an error in this story to {site}.",
	"Sponsored content from our {site} partners appears below.",
	"All times are local. Prices in US dollars unless stated otherwise.",
}

// sites are the fake publishers with their boilerplate filled in.
var sites = makeSites()

func makeSites() []site {
	out := make([]site, len(siteNames))
	for i, name := range siteNames {
		bp := make([]string, len(boilerplateTemplates))
		for j, t := range boilerplateTemplates {
			bp[j] = strings.ReplaceAll(t, "{site}", name)
		}
		domain := strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(name, "The "), " ", "")) + ".example"
		out[i] = site{name: name, domain: domain, boilerplate: bp}
	}
	return out
}

// agencies appear in the datelines of rewritten copies.
var agencies = []string{
	"Reuters", "AP", "AFP", "Bloomberg", "Dow Jones", "Market Wire", "Agency", "UPI",
}

// cities appear in datelines when a story has none of its own.
var cities = []string{
	"LONDON", "NEW YORK", "WASHINGTON", "TOKYO", "PARIS", "FRANKFURT", "CHICAGO",
	"SYDNEY", "HONG KONG", "SINGAPORE", "TORONTO", "ZURICH", "BRUSSELS", "MADRID",
	"SAO PAULO", "JOHANNESBURG", "HOUSTON", "BOSTON", "MILAN", "SEOUL",
}

// headlinePrefixes and headlineSuffixes dress up a re-cased headline.
var (
	headlinePrefixes = []string{"UPDATE 1-", "UPDATE 2-", "WRAPUP-", "REFILE-", "", "", ""}
	headlineSuffixes = []string{" - sources", " - report", " (updated)", "", "", ""}
)

// usToUK maps American spellings to British ones; the -ize rule covers most
// other verbs.
var usToUK = map[string]string{
	"color": "colour", "colors": "colours", "favor": "favour", "favorable": "favourable",
	"labor": "labour", "center": "centre", "centers": "centres", "defense": "defence",
	"license": "licence", "program": "programme", "programs": "programmes",
	"analyze": "analyse", "analyzed": "analysed", "traveled": "travelled",
	"fulfill": "fulfil", "gray": "grey", "harbor": "harbour", "honor": "honour",
	"neighbor": "neighbour", "offense": "offence", "catalog": "catalogue",
	"behavior": "behaviour", "canceled": "cancelled", "jewelry": "jewellery",
	"aluminum": "aluminium", "toward": "towards",
	"fiber": "fibre", "theater": "theatre", "meter": "metre", "meters": "metres",
	"liter": "litre", "liters": "litres", "tire": "tyre", "tires": "tyres",
	"mold": "mould", "plow": "plough", "skeptical": "sceptical",
}

// izeExceptions end in -ize but are not -ise in British spelling.
var izeExceptions = map[string]bool{"size": true, "prize": true, "seize": true, "capsize": true}
