import Testing

@testable import TableModel

@Suite("NavigationStack: one session's stack of screens")
struct NavigationStackTests {
  let settings = NavigationLevel(list: "L1", title: "Settings")
  let general = NavigationLevel(list: "L2", title: "General")
  let about = NavigationLevel(list: "L3", title: "About")

  /// Settings › General › About, reached by tapping R-general and then R-about.
  var threeDeep: NavigationStack {
    var stack = NavigationStack(root: settings)
    stack.push(general, from: "R-general")
    stack.push(about, from: "R-about")
    return stack
  }

  @Test func aNewStackIsJustItsRoot() {
    let stack = NavigationStack(root: settings)
    #expect(stack.levels == [settings])
    #expect(stack.top == settings)
    #expect(stack.depth == 0)
    #expect(stack.titles == ["Settings"])
    #expect(stack.backTitle == nil)
  }

  @Test func restoringNeedsAtLeastOneLevel() {
    #expect(NavigationStack(levels: []) == nil)
    #expect(NavigationStack(levels: [settings, general])?.levels == [settings, general])
  }

  @Test func pushRemembersTheTappedRowOnTheLevelBelow() {
    var stack = NavigationStack(root: settings)
    stack.push(general, from: "R-general")
    var tapped = settings
    tapped.selectedRow = "R-general"
    #expect(stack.levels == [tapped, general])
    #expect(stack.depth == 1)
  }

  @Test func titlesRunFromTheRootAndTheBackButtonShowsTheLevelBelow() {
    #expect(threeDeep.titles == ["Settings", "General", "About"])
    #expect(threeDeep.backTitle == "General")
    #expect(threeDeep.top.list == "L3")
  }

  @Test func popReturnsToTheLevelBelowWithItsTappedRowStillSelected() {
    var stack = threeDeep
    let changed = stack.pop()
    #expect(changed)
    #expect(stack.levels.map(\.list) == ["L1", "L2"])
    #expect(stack.top.selectedRow == "R-about")
    #expect(stack.backTitle == "Settings")
  }

  @Test func popAtTheRootChangesNothing() {
    var stack = NavigationStack(root: settings)
    let changed = stack.pop()
    #expect(!changed)
    #expect(stack == NavigationStack(root: settings))
  }

  @Test func editingAndScrollPositionBelongToTheirLevel() {
    var stack = NavigationStack(root: settings)
    stack.top.isEditing = true
    stack.top.scrollAnchor = "R-40"
    stack.push(general, from: "R-general")
    #expect(!stack.top.isEditing && stack.top.scrollAnchor == nil)
    stack.pop()
    #expect(stack.top.isEditing && stack.top.scrollAnchor == "R-40")
  }

  @Test func popToAListKeepsEverythingUpToIt() {
    var stack = threeDeep
    let changed = stack.pop(to: "L1")
    #expect(changed)
    #expect(stack.levels.map(\.list) == ["L1"])
    #expect(stack.top.selectedRow == "R-general")
  }

  @Test func popToTheTopOrToAMissingListChangesNothing() {
    var stack = threeDeep
    let poppedToTop = stack.pop(to: "L3")
    #expect(poppedToTop)
    #expect(stack == threeDeep)
    let poppedToMissing = stack.pop(to: "L9")
    #expect(!poppedToMissing)
    #expect(stack == threeDeep)
  }

  @Test func popToAListShownTwiceStopsAtTheNearest() {
    var stack = threeDeep
    stack.push(NavigationLevel(list: "L2", title: "General again"), from: "R-back")
    stack.push(NavigationLevel(list: "L4", title: "Legal"), from: nil)
    let changed = stack.pop(to: "L2")
    #expect(changed)
    #expect(stack.titles == ["Settings", "General", "About", "General again"])
  }

  @Test func popToExistingStopsBelowTheFirstLevelThatIsGone() {
    var stack = threeDeep
    // General is gone: About, above it, cannot stay either.
    let changed = stack.popToExisting { $0 != "L2" }
    #expect(changed)
    #expect(stack.levels.map(\.list) == ["L1"])
  }

  @Test func popToExistingChangesNothingWhenEveryLevelExists() {
    var stack = threeDeep
    let changed = stack.popToExisting { _ in true }
    #expect(!changed)
    #expect(stack == threeDeep)
  }

  @Test func popToExistingAlwaysKeepsTheRoot() {
    var stack = threeDeep
    let changed = stack.popToExisting { _ in false }
    #expect(changed)
    #expect(stack.levels.map(\.list) == ["L1"])
    var root = NavigationStack(root: settings)
    let changedRoot = root.popToExisting { _ in false }
    #expect(!changedRoot)
    #expect(root.levels.count == 1)
  }
}
